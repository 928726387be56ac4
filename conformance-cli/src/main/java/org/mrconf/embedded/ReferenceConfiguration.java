package org.mrconf.embedded;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DutProfile;
import org.mrconf.transport.EndpointConfig;

/**
 * The configurations the embedded reference can run in, each with the declarations that go with it. The standard one
 * is what {@code ./metaroce run} tests; the long-haul one (a metro-scale link: clause 6.6.5's timers) exists so that
 * the long-haul profile has a conforming implementation to pass and a defect to catch ({@code metaroce selftest}
 * runs the long-haul clauses against it).
 */
public enum ReferenceConfiguration {
    /** The soft DUT's defaults (the bundled {@code reference-udp} profile). */
    STANDARD,
    /**
     * Clause 6.6.5's timers: the standard minimum RTO (2 ms; the clause allows up to 20 ms), a 50 ms initial RTO (a 10 ms path RTT never
     * outlives it), a 1 s maximum RTO, and a 10 s connection timeout that the backoff to 1 s fits in.
     */
    LONG_HAUL;

    private static final long LONG_HAUL_INITIAL_RTO_NS = 50_000_000L;
    private static final long LONG_HAUL_MAX_RTO_NS = 1_000_000_000L;
    private static final long LONG_HAUL_CONNECTION_TIMEOUT_NS = 10_000_000_000L;

    /** Its name in a {@code --dut reference?config=NAME} target: {@code standard}, {@code long-haul}. */
    public String targetName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The configuration a target names; an {@link IllegalArgumentException} names the known ones. */
    public static ReferenceConfiguration fromTargetName(final String name) {
        for (final ReferenceConfiguration configuration : values()) {
            if (configuration.targetName().equals(name)) {
                return configuration;
            }
        }
        throw new IllegalArgumentException("unknown configuration '" + name + "', expected standard or long-haul");
    }

    /** The soft DUT's endpoint parameters in this configuration. */
    EndpointConfig endpoint(final EndpointConfig standard) {
        return switch (this) {
            case STANDARD -> standard;
            case LONG_HAUL ->
                standard.toBuilder()
                        .timers(standard.minRtoNs(), LONG_HAUL_INITIAL_RTO_NS, LONG_HAUL_MAX_RTO_NS)
                        .connectionTimeout(LONG_HAUL_CONNECTION_TIMEOUT_NS)
                        .build();
        };
    }

    /** What the reference declares in this configuration: the standard declarations, its timers and claims changed. */
    DutProfile declarations(final DutProfile standard) {
        if (this == STANDARD) {
            return standard;
        }
        final DutProfile.Conformance conformance = standard.conformance();
        final Set<Profile> claims = EnumSet.copyOf(conformance.profiles());
        claims.add(Profile.LONG_HAUL);
        final DutProfile.Timers timers = standard.parameters().timers();
        return standard.withConformance(new DutProfile.Conformance(
                        claims, conformance.optionalClauses(), conformance.limits(), conformance.reorderTolerance()))
                .withParameters(standard.parameters()
                        .withTimers(new DutProfile.Timers(
                                timers.minRto(),
                                Duration.ofNanos(LONG_HAUL_INITIAL_RTO_NS),
                                Duration.ofNanos(LONG_HAUL_MAX_RTO_NS),
                                timers.ackDelay(),
                                timers.ackCoalescing(),
                                timers.unhealthyThreshold(),
                                Duration.ofNanos(LONG_HAUL_CONNECTION_TIMEOUT_NS),
                                timers.tolerance())));
    }
}
