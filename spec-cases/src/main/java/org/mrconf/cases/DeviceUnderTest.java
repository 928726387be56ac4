package org.mrconf.cases;

import java.util.Objects;
import org.mrconf.dut.DutControl;
import org.mrconf.dut.WireLink;

/**
 * The device a run tests, as the cases see it: its control channel and its wire link, nothing else.
 * A vendor NIC and the reference are reached through the same two interfaces.
 *
 * @param name    what the reports call it
 * @param control the control channel (the DUT control protocol)
 * @param link    the wire link to its MetaRoCE port
 */
public record DeviceUnderTest(String name, DutControl control, WireLink link) {
    public DeviceUnderTest {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(control, "control");
        Objects.requireNonNull(link, "link");
    }
}
