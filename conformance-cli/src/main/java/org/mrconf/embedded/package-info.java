/**
 * The reference soft DUT run inside the suite's process, for the CLI's default device and for self-validation. This
 * is the one place where the suite's DUT interfaces and the reference implementation meet: it joins them in memory,
 * through the same control protocol and packets a vendor NIC sees. It sits apart from {@code cli} so that
 * {@code selftest}, which the CLI runs, can start it without a package cycle.
 */
package org.mrconf.embedded;
