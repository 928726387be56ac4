/**
 * The boundary between the suite and a device under test: the control channel ({@link org.mrconf.dut.DutControl},
 * the DUT control protocol of {@code docs/dut-control-protocol.md}), the wire link ({@link org.mrconf.dut.WireLink})
 * and the device's declarations ({@link org.mrconf.dut.DeviceDeclaration}). Vendors plug in here; the suite reaches a device
 * through nothing else.
 */
package org.mrconf.dut;
