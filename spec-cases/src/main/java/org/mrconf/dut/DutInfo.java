package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.net.InetAddress;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apiguardian.api.API;
import org.mrconf.catalogue.Profile;

/**
 * What the agent's {@code hello} says about the device: its identity, the profiles it claims, where it speaks
 * MetaRoCE and its limits. The runner compares it with the {@link DeviceDeclaration}.
 *
 * @param protocol       the control protocol version the agent answered with (1)
 * @param implementation vendor, model, firmware, driver
 * @param profiles       the claimed profiles (spec Table 12-1)
 * @param wireVersion    the MetaRoCE wire version, e.g. {@code 1.0}
 * @param udpPort        the device's MetaRoCE UDP port
 * @param addresses      the device's MetaRoCE addresses
 * @param limits         the device's limits
 * @param optionalClauses the SHOULD and MAY clauses the device declares it implements (spec clause 12.1.5);
 *                        empty when {@code hello} gives none
 * @param defects        the deliberate non-conformances the device says it commits ({@code hello}'s optional
 *                       {@code defects}; empty for a clean device): a report names them, so that a defect DUT
 *                       never passes as clean
 * @param declarations   the reorder tolerance and the test parameters {@code hello} gives (clause 12.1.5), which the
 *                       tester judges by when no declaration file is given
 */
@API(status = MAINTAINED, since = "0.1")
public record DutInfo(
        int protocol,
        DutIdentity implementation,
        Set<Profile> profiles,
        String wireVersion,
        int udpPort,
        List<InetAddress> addresses,
        DutLimits limits,
        List<String> optionalClauses,
        List<String> defects,
        HelloDeclarations declarations) {
    public DutInfo {
        Objects.requireNonNull(declarations, "declarations");
        defects = List.copyOf(defects);
        Objects.requireNonNull(implementation, "implementation");
        profiles = Set.copyOf(profiles);
        Objects.requireNonNull(wireVersion, "wireVersion");
        addresses = List.copyOf(addresses);
        Objects.requireNonNull(limits, "limits");
        optionalClauses = List.copyOf(optionalClauses);
    }

    /** The same without optional clauses or defects: for agents and tests that build one by hand. */
    public DutInfo(
            int protocol,
            DutIdentity implementation,
            Set<Profile> profiles,
            String wireVersion,
            int udpPort,
            List<InetAddress> addresses,
            DutLimits limits) {
        this(protocol, implementation, profiles, wireVersion, udpPort, addresses, limits, List.of(), List.of());
    }

    /** The same without declarations beyond the claims. */
    public DutInfo(
            int protocol,
            DutIdentity implementation,
            Set<Profile> profiles,
            String wireVersion,
            int udpPort,
            List<InetAddress> addresses,
            DutLimits limits,
            List<String> optionalClauses,
            List<String> defects) {
        this(
                protocol,
                implementation,
                profiles,
                wireVersion,
                udpPort,
                addresses,
                limits,
                optionalClauses,
                defects,
                HelloDeclarations.NONE);
    }

    /** Whether the device says it commits deliberate non-conformances. */
    public boolean hasDefects() {
        return !defects.isEmpty();
    }

    public boolean claims(Profile profile) {
        return profiles.contains(profile);
    }
}
