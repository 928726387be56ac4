package org.mrconf.embedded;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.transport.EndpointConfig;
import org.mrconf.transport.Feature;

/**
 * The configurations the embedded reference can run in, each with the declarations that go with it. The standard one
 * is what {@code ./metaroce run} tests. The others exist so that a profile the standard one does not claim has a
 * conforming implementation to pass and a defect to catch ({@code metaroce selftest} runs that profile's clauses
 * against them): long-haul (a metro-scale link: clause 6.6.5's timers) and ipv6 (the in-memory link labelled with IPv6
 * addresses, clause 4.1.2); core stands for a device claiming fewer profiles, and reorder for a sender with a reorder
 * tolerance (clause 6.3.3). Frames and ipv6 carry whole Ethernet frames, which the soft DUT checks below any host
 * stack, so that clause 4.1.6's checksum rules, which a device on a host UDP stack never sees broken, have an
 * implementation to judge, over IPv4 and over IPv6.
 */
public enum ReferenceConfiguration {
    /** The soft DUT's defaults (the bundled {@code reference-udp} profile). */
    STANDARD,
    /**
     * Clause 6.6.5's timers: the standard minimum RTO (2 ms; the clause allows up to 20 ms), a 50 ms initial RTO (a
     * 10 ms path RTT never outlives it), a 1 s maximum RTO, and a 10 s connection timeout that the backoff to 1 s fits
     * in.
     */
    LONG_HAUL,
    /**
     * IPv6 carriage: both ends of the in-memory link are labelled with IPv6 addresses of the documentation prefix
     * (RFC 3849; nothing is sent on any network), so the soft DUT runs with IPv6's 40-byte header and claims ipv6.
     * The link carries whole frames, so the IPv6 checksum rules of clause 4.1.6 are judged too.
     */
    IPV6,
    /**
     * Whole Ethernet/IPv4/UDP frames on the in-memory link, in both directions: the tester builds every frame it
     * sends (a wrong or zero UDP checksum among them) and the soft DUT checks them as a NIC does (clause 4.1.6).
     */
    FRAMES,
    /**
     * A device that claims only core, multipath and streams: the endpoint is built without read, immediate and
     * congestion, so it refuses READ_REQUEST and WRITE_WITH_IMMEDIATE with NACK INVALID_REQUEST (clause 5.6.7) and
     * sends every ACK with CE count 0 and no rate limit (clause 8.2.6), and keeps its declared first windows of
     * {@value #CORE_PATH_WINDOW} and {@value #CORE_CONNECTION_WINDOW} packets without growing them (clause 10.1.6):
     * the three clauses only such a device can be judged on.
     */
    CORE,
    /**
     * A sender with a reorder tolerance (clause 6.3.3, a MAY the standard configuration does not implement): a gap's
     * PSN is deemed lost once {@value #REORDER_PACKETS} PSNs after it are reported received or 80 ms after the first
     * ACK that shows it, whichever comes first (and never later than a quarter of the path's smoothed RTT).
     */
    REORDER,
    /**
     * A sender that declares a maximum connection window (clause 10.1.2, freedom F-24, a choice the standard
     * configuration does not take): first windows of {@value #CAPPED_PATH_WINDOW} packets per path and
     * {@value #CAPPED_CONNECTION_WINDOW} per connection, the connection window's additive increase stopping at
     * {@value #CAPPED_MAXIMUM}.
     */
    CAPPED_WINDOW;

    /** The clauses only a device that claims fewer profiles than the standard configuration can be judged on. */
    private static final List<String> UNCLAIMED_PROFILE_CLAUSES = List.of("5.6.7", "8.2.6", "10.1.6");

    /** The profiles the core configuration does not claim, each a feature its endpoint is built without. */
    private static final Set<Profile> NOT_CLAIMED_BY_CORE =
            EnumSet.of(Profile.READ, Profile.IMMEDIATE, Profile.CONGESTION);

    /** The clause that only a frame-carrying configuration can judge: a host UDP stack hides its breakage. */
    private static final String CHECKSUM_CLAUSE = "4.1.6";

    /** The clause only a sender with a declared reorder tolerance can be judged on. */
    private static final String REORDER_CLAUSE = "6.3.3";

    /**
     * The first windows the core configuration declares and keeps (clause 10.1.6): a connection window below what two
     * paths' windows allow, so that a case sees both bounds bind.
     */
    private static final int CORE_PATH_WINDOW = 16;

    private static final int CORE_CONNECTION_WINDOW = 24;

    /** The clause only a sender with a declared maximum connection window can be judged on in full. */
    private static final String MAXIMUM_WINDOW_CLAUSE = "10.1.2";

    private static final int CAPPED_PATH_WINDOW = 4;
    private static final int CAPPED_CONNECTION_WINDOW = 8;
    private static final int CAPPED_MAXIMUM = 40;

    private static final int REORDER_PACKETS = 3;
    private static final long REORDER_TIME_NS = 80_000_000L;

    private static final long LONG_HAUL_INITIAL_RTO_NS = 50_000_000L;
    private static final long LONG_HAUL_MAX_RTO_NS = 1_000_000_000L;
    private static final long LONG_HAUL_CONNECTION_TIMEOUT_NS = 10_000_000_000L;

    private static final InetAddress IPV4_DUT = address("127.0.0.1");
    private static final InetAddress IPV4_TESTER = address("127.0.0.2");
    private static final InetAddress IPV6_DUT = address("2001:db8::1");
    private static final InetAddress IPV6_TESTER = address("2001:db8::2");

    /** The profile this configuration exists for; empty for the standard one. */
    public Optional<Profile> profile() {
        return switch (this) {
            case STANDARD -> Optional.empty();
            case LONG_HAUL -> Optional.of(Profile.LONG_HAUL);
            case IPV6 -> Optional.of(Profile.IPV6);
            case FRAMES, CORE, REORDER, CAPPED_WINDOW -> Optional.empty();
        };
    }

    /**
     * The clauses outside {@link #profile()} this configuration exists for: the checksum clause where frames travel.
     */
    public List<String> clauses() {
        if (this == CORE) {
            return UNCLAIMED_PROFILE_CLAUSES;
        }
        if (this == REORDER) {
            return List.of(REORDER_CLAUSE);
        }
        if (this == CAPPED_WINDOW) {
            return List.of(MAXIMUM_WINDOW_CLAUSE);
        }
        return carriesFrames() ? List.of(CHECKSUM_CLAUSE) : List.of();
    }

    /**
     * Every clause this configuration exists to judge: those of the profile it claims and the standard one does not
     * ({@link #profile()}), and those only it can judge ({@link #clauses()}). Empty for the standard configuration.
     */
    public List<String> judgedClauses() {
        final List<String> judged = new java.util.ArrayList<>();
        profile()
                .ifPresent(p -> org.mrconf.cases.Applicability.catalogue().clauses().stream()
                        .filter(c -> c.profile() == p)
                        .map(org.mrconf.catalogue.Clause::id)
                        .forEach(judged::add));
        judged.addAll(clauses());
        return List.copyOf(judged);
    }

    /** Whether the in-memory link carries whole Ethernet frames rather than datagrams. */
    boolean carriesFrames() {
        return this == IPV6 || this == FRAMES;
    }

    /** The label of the DUT's end of the in-memory link. */
    InetAddress dutAddress() {
        return this == IPV6 ? IPV6_DUT : IPV4_DUT;
    }

    /** The label of the tester's end of the in-memory link. */
    InetAddress testerAddress() {
        return this == IPV6 ? IPV6_TESTER : IPV4_TESTER;
    }

    /**
     * Its name in a {@code --dut reference?config=NAME} target: {@code standard}, {@code long-haul}, {@code ipv6},
     * {@code frames}, {@code core}, {@code reorder}, {@code capped-window}.
     */
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
        throw new IllegalArgumentException("unknown configuration '" + name
                + "', expected standard, long-haul, ipv6, frames, core, reorder or capped-window");
    }

    /** The soft DUT's endpoint parameters in this configuration. */
    EndpointConfig endpoint(final EndpointConfig standard) {
        return switch (this) {
            case STANDARD, IPV6, FRAMES -> standard; // IPv6's header length follows from the DUT's address (SoftDut)
            case CORE ->
                standard.toBuilder()
                        .features(EnumSet.noneOf(Feature.class))
                        .windows(CORE_PATH_WINDOW, CORE_CONNECTION_WINDOW, standard.maxConnectionWindow())
                        .build();
            case REORDER ->
                standard.toBuilder()
                        .reorderTolerance(REORDER_PACKETS, REORDER_TIME_NS)
                        .build();
            case CAPPED_WINDOW ->
                standard.toBuilder()
                        .windows(CAPPED_PATH_WINDOW, CAPPED_CONNECTION_WINDOW, CAPPED_MAXIMUM)
                        .build();
            case LONG_HAUL ->
                standard.toBuilder()
                        .timers(standard.minRtoNs(), LONG_HAUL_INITIAL_RTO_NS, LONG_HAUL_MAX_RTO_NS)
                        .connectionTimeout(LONG_HAUL_CONNECTION_TIMEOUT_NS)
                        .build();
        };
    }

    /** What the reference declares in this configuration: the standard declarations, its timers and claims changed. */
    DeviceDeclaration declarations(final DeviceDeclaration standard) {
        if (this == CORE) {
            final DeviceDeclaration.Conformance conformance = standard.conformance();
            final Set<Profile> claims = EnumSet.copyOf(conformance.profiles());
            claims.removeAll(NOT_CLAIMED_BY_CORE);
            // An optional clause of a profile it no longer claims is not declared either.
            final List<String> optional = new java.util.ArrayList<>();
            conformance.optionalClauses().stream()
                    .filter(id -> org.mrconf.cases.Applicability.catalogue()
                            .find(id)
                            .map(c -> claims.contains(c.profile()))
                            .orElse(false))
                    .forEach(optional::add);
            final DeviceDeclaration.Congestion congestion =
                    standard.parameters().congestion();
            return standard.withConformance(new DeviceDeclaration.Conformance(
                            claims, optional, conformance.limits(), conformance.reorderTolerance()))
                    .withParameters(standard.parameters()
                            .withCongestion(new DeviceDeclaration.Congestion(
                                    congestion.decreaseFactor(),
                                    congestion.linkRateMbps(),
                                    congestion.targetUtilization(),
                                    congestion.hintInterval(),
                                    CORE_PATH_WINDOW,
                                    CORE_CONNECTION_WINDOW,
                                    congestion.undeclared(),
                                    congestion.activeWindow())));
        }
        if (this == REORDER) {
            final DeviceDeclaration.Conformance conformance = standard.conformance();
            final List<String> optional = new java.util.ArrayList<>(conformance.optionalClauses());
            optional.add(REORDER_CLAUSE);
            return standard.withConformance(new DeviceDeclaration.Conformance(
                    conformance.profiles(),
                    optional,
                    conformance.limits(),
                    new DeviceDeclaration.ReorderTolerance(REORDER_PACKETS, Duration.ofNanos(REORDER_TIME_NS))));
        }
        if (this == CAPPED_WINDOW) {
            final DeviceDeclaration.Congestion congestion =
                    standard.parameters().congestion();
            return standard.withParameters(standard.parameters()
                    .withCongestion(new DeviceDeclaration.Congestion(
                            congestion.decreaseFactor(),
                            congestion.linkRateMbps(),
                            congestion.targetUtilization(),
                            congestion.hintInterval(),
                            CAPPED_PATH_WINDOW,
                            CAPPED_CONNECTION_WINDOW,
                            congestion.undeclared(),
                            congestion.activeWindow(),
                            CAPPED_MAXIMUM)));
        }
        if (profile().isEmpty()) {
            return standard; // frames change the carriage, not what the device claims
        }
        final DeviceDeclaration.Conformance conformance = standard.conformance();
        final Set<Profile> claims = EnumSet.copyOf(conformance.profiles());
        claims.add(profile().orElseThrow());
        final DeviceDeclaration claiming = standard.withConformance(new DeviceDeclaration.Conformance(
                claims, conformance.optionalClauses(), conformance.limits(), conformance.reorderTolerance()));
        if (this == IPV6) {
            return claiming;
        }
        final DeviceDeclaration.Timers timers = standard.parameters().timers();
        return claiming.withParameters(standard.parameters()
                .withTimers(new DeviceDeclaration.Timers(
                        timers.minRto(),
                        Duration.ofNanos(LONG_HAUL_INITIAL_RTO_NS),
                        Duration.ofNanos(LONG_HAUL_MAX_RTO_NS),
                        timers.ackDelay(),
                        timers.ackCoalescing(),
                        timers.unhealthyThreshold(),
                        Duration.ofNanos(LONG_HAUL_CONNECTION_TIMEOUT_NS),
                        timers.tolerance(),
                        timers.receiverNotReadyRetry())));
    }

    private static InetAddress address(final String literal) {
        try {
            return InetAddress.getByName(literal); // a literal: nothing is looked up
        } catch (final UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
