/**
 * The reference soft DUT run inside the suite's process, for the CLI's default device, self-validation and vector
 * authoring. This is the one place where the suite's DUT interfaces and the reference implementation meet: it joins
 * them in memory, through the same control protocol and packets a vendor NIC sees. Its configurations are the
 * reference's legal variants that claim other profiles; {@link org.mrconf.embedded.DefectCapture} records the
 * reference committing a defect, for self-validation of {@code analyze}.
 */
package org.mrconf.embedded;
