/**
 * Devices the CLI can put under test. The embedded reference is the one place where the suite's DUT
 * interfaces and the reference implementation meet: it joins them in memory, through the same control
 * protocol and packets a vendor NIC sees.
 */
package org.mrconf.cli.dut;
