package org.mrconf.cases;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.util.Objects;
import org.apiguardian.api.API;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.DutControl;
import org.mrconf.dut.WireLink;

/**
 * The device a run tests, as the cases see it: its control channel, its wire link and what it declared, nothing
 * else. A vendor NIC and the reference are reached through the same two interfaces.
 *
 * @param name    what the reports call it
 * @param control the control channel (the DUT control protocol)
 * @param link    the wire link to its MetaRoCE port
 * @param profile what the device declares: identity, claimed profiles and optional clauses, limits, timers and their
 *     tolerance (spec clauses 12.1.2 and 12.1.3). Cases judge against these values, never against guesses.
 */
@API(status = MAINTAINED, since = "0.1")
public record DeviceUnderTest(String name, DutControl control, WireLink link, DeviceDeclaration profile) {
    public DeviceUnderTest {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(control, "control");
        Objects.requireNonNull(link, "link");
        Objects.requireNonNull(profile, "profile");
    }

    /** The same device reached through another link (a test wraps the link, e.g. to drop packets). */
    public DeviceUnderTest withLink(final WireLink newLink) {
        return new DeviceUnderTest(name, control, newLink, profile);
    }
}
