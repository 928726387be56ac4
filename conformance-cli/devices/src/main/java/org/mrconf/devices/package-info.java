/**
 * Opening the device a {@code --dut} target names (a declaration file, a UDP agent, a raw Ethernet interface or the
 * embedded reference) and the readiness checks of {@code metaroce dut check}.
 */
package org.mrconf.devices;
