package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;
import org.mrconf.catalogue.Profile;
import org.mrconf.pcap.MacAddress;

/**
 * Everything the suite is told about a device under test, from one JSON file ({@link DeclarationLoader}): who made
 * it, what it claims (the implementation conformance statement of spec clause 12.1.2), the parameters a tester
 * needs (clause 12.1.3), where its control agent listens, and which wire link reaches it. Tests read the declared
 * values, never guesses: timing checks use {@link Timers}, "not applicable" verdicts use {@link Conformance}.
 *
 * @param identity    vendor, model, firmware, driver
 * @param conformance claimed profiles, optional clauses implemented, limits
 * @param parameters  addresses, ports, MTU, paths, initial PSNs, timers
 * @param control     the control agent's endpoint; absent for the embedded reference
 * @param link        how the wire reaches the device
 */
@API(status = MAINTAINED, since = "0.1")
public record DeviceDeclaration(
        DutIdentity identity,
        Conformance conformance,
        Parameters parameters,
        Optional<ControlEndpoint> control,
        Link link) {
    public DeviceDeclaration {
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(conformance, "conformance");
        Objects.requireNonNull(parameters, "parameters");
        Objects.requireNonNull(control, "control");
        Objects.requireNonNull(link, "link");
    }

    /** Whether the device claims {@code profile}. */
    public boolean claims(Profile profile) {
        return conformance.profiles().contains(profile);
    }

    /** Whether the device declares that it implements the SHOULD or MAY clause {@code clauseId}. */
    public boolean implementsOptional(String clauseId) {
        return conformance.optionalClauses().contains(clauseId);
    }

    /**
     * Says how {@code hello}'s claimed profiles differ from this declaration, or nothing when they agree. A run judges
     * by the declaration (what the vendor declared), so a disagreement is reported, never used.
     */
    public Optional<String> claimsDisagreement(DutInfo hello) {
        final Set<String> declared = specNames(conformance().profiles());
        final Set<String> claimed = specNames(hello.profiles());
        if (declared.equals(claimed)) {
            return Optional.empty();
        }
        return Optional.of("hello claims " + claimed + " but the profile declares " + declared
                + "; the run judges by the profile (what the vendor declared)");
    }

    private static Set<String> specNames(Set<Profile> profiles) {
        final Set<String> names = new java.util.TreeSet<>();
        profiles.forEach(p -> names.add(p.specName()));
        return names;
    }

    public DeviceDeclaration withConformance(Conformance newConformance) {
        return new DeviceDeclaration(identity, newConformance, parameters, control, link);
    }

    /**
     * This profile judged by what {@code hello} declares (spec clause 12.1.5, when no declaration file is given): the
     * implementation it names, its claims, optional clauses, limits and reorder tolerance, and its timers and
     * congestion parameters where it gives them; the addresses, MTU, paths and PSNs of the target stay.
     */
    public DeviceDeclaration declaredBy(DutInfo hello) {
        final Conformance declared = new Conformance(
                hello.profiles(),
                hello.optionalClauses(),
                hello.limits(),
                hello.declarations().reorderTolerance());
        final Parameters p = parameters;
        final Parameters fromHello = new Parameters(
                p.dut(),
                p.tester(),
                p.mtu(),
                p.paths(),
                p.initialSendPsn(),
                p.initialReceivePsn(),
                hello.declarations().timers().orElse(p.timers()),
                hello.declarations().congestion().orElse(p.congestion()));
        return new DeviceDeclaration(hello.implementation(), declared, fromHello, control, link);
    }

    public DeviceDeclaration withParameters(Parameters newParameters) {
        return new DeviceDeclaration(identity, conformance, newParameters, control, link);
    }

    public DeviceDeclaration withControl(Optional<ControlEndpoint> newControl) {
        return new DeviceDeclaration(identity, conformance, parameters, newControl, link);
    }

    public DeviceDeclaration withLink(Link newLink) {
        return new DeviceDeclaration(identity, conformance, parameters, control, newLink);
    }

    /**
     * The implementation conformance statement (spec clause 12.1.2).
     *
     * @param profiles         the claimed profiles (Table 12-1)
     * @param optionalClauses  ids of the SHOULD and MAY clauses implemented; tests of others report "not applicable"
     * @param limits           the device's limits
     * @param reorderTolerance the loss-detection tolerance of clause 6.3.3, zero when not implemented
     */
    public record Conformance(
            Set<Profile> profiles, List<String> optionalClauses, DutLimits limits, ReorderTolerance reorderTolerance) {
        public Conformance {
            profiles = Set.copyOf(profiles);
            optionalClauses = List.copyOf(optionalClauses);
            Objects.requireNonNull(limits, "limits");
            Objects.requireNonNull(reorderTolerance, "reorderTolerance");
        }
    }

    /**
     * How long a sender may wait before deeming a PSN lost (spec clause 6.3.3): until {@code packets} later PSNs
     * are reported (at most 3) or {@code time} has passed (at most a quarter of the smoothed RTT).
     */
    public record ReorderTolerance(int packets, Duration time) {
        public static final ReorderTolerance NONE = new ReorderTolerance(0, Duration.ZERO);

        public ReorderTolerance {
            Objects.requireNonNull(time, "time");
        }
    }

    /**
     * The test parameters of spec clause 12.1.3.
     *
     * @param dut               the DUT's MetaRoCE address and UDP port
     * @param tester            the tester's address and UDP port; port 0 means any free port
     * @param mtu               the connection's IP MTU, bytes
     * @param paths             paths per test connection
     * @param initialSendPsn    first PSN of each path the DUT sends on
     * @param initialReceivePsn first PSN of each path the tester sends on
     * @param timers            declared timers and their tolerance
     * @param congestion        the congestion test parameters of clause 12.1.6
     */
    public record Parameters(
            InetSocketAddress dut,
            InetSocketAddress tester,
            int mtu,
            int paths,
            long initialSendPsn,
            long initialReceivePsn,
            Timers timers,
            Congestion congestion) {
        public Parameters {
            Objects.requireNonNull(dut, "dut");
            Objects.requireNonNull(tester, "tester");
            Objects.requireNonNull(timers, "timers");
            Objects.requireNonNull(congestion, "congestion");
        }

        /** The multiplicative decrease of clause 10.1.1. */
        public double decreaseFactor() {
            return congestion.decreaseFactor();
        }

        public Parameters withDut(InetSocketAddress newDut) {
            return new Parameters(newDut, tester, mtu, paths, initialSendPsn, initialReceivePsn, timers, congestion);
        }

        public Parameters withTester(InetSocketAddress newTester) {
            return new Parameters(dut, newTester, mtu, paths, initialSendPsn, initialReceivePsn, timers, congestion);
        }

        public Parameters withTimers(Timers newTimers) {
            return new Parameters(dut, tester, mtu, paths, initialSendPsn, initialReceivePsn, newTimers, congestion);
        }

        public Parameters withCongestion(Congestion newCongestion) {
            return new Parameters(dut, tester, mtu, paths, initialSendPsn, initialReceivePsn, timers, newCongestion);
        }
    }

    /**
     * The congestion test parameters of spec clause 12.1.6, against which rate hints and window reactions are
     * judged (declaration file {@code parameters.congestion}, {@code hello}'s {@code parameters}).
     *
     * @param decreaseFactor          the multiplicative decrease of clause 10.1.1 (default 0.5)
     * @param linkRateMbps            the device's receive link rate, Mbit/s (default 100,000)
     * @param targetUtilization       the share of the link rate handed out in rate hints, clause 8.2.4 (default 0.95)
     * @param hintInterval            the interval over which the receiver counts active senders, clause 8.2.4
     *                                (default 10 microseconds)
     * @param initialPathWindow       the first congestion window of each path, packets; 0 when not declared
     * @param initialConnectionWindow the first connection window, packets; 0 when not declared
     * @param undeclared              the fields the declaration left out, for which the defaults stand (clause 12.1.6
     *                                requires all of them of a device claiming congestion; the case reports them)
     * @param activeWindow            the window over which the receiver counts senders for the fair share, at least
     *                                the hint interval (clause 8.2.4; optional, default the interval)
     */
    public record Congestion(
            double decreaseFactor,
            long linkRateMbps,
            double targetUtilization,
            Duration hintInterval,
            int initialPathWindow,
            int initialConnectionWindow,
            Set<String> undeclared,
            Duration activeWindow,
            int maxConnectionWindow) {
        /** The fields of the declaration file's {@code parameters.congestion}, every one required by clause 12.1.6. */
        public static final Set<String> FIELDS = Set.of(
                "decreaseFactor",
                "linkRateMbps",
                "targetUtilization",
                "hintIntervalUs",
                "initialPathWindow",
                "initialConnectionWindow");

        /**
         * The fields the declaration file may give: {@link #FIELDS}, the optional active window and the optional maximum
         * connection window (Table 12-2).
         */
        public static final Set<String> ALLOWED_FIELDS = java.util.stream.Stream.concat(
                        FIELDS.stream(), java.util.stream.Stream.of("activeWindowUs", "maxConnectionWindow"))
                .collect(java.util.stream.Collectors.toUnmodifiableSet());

        /** The spec's defaults (clauses 8.2.4, 10.1.1) for a 100 Gbit/s link; nothing fixes the first windows. */
        public static final Congestion DEFAULTS =
                new Congestion(0.5, 100_000, 0.95, Duration.ofNanos(10_000), 0, 0, FIELDS, Duration.ofNanos(10_000), 0);

        public Congestion {
            Objects.requireNonNull(hintInterval, "hintInterval");
            Objects.requireNonNull(activeWindow, "activeWindow");
            if (activeWindow.compareTo(hintInterval) < 0) {
                throw new IllegalArgumentException(
                        "the active window " + activeWindow + " is shorter than the hint interval " + hintInterval);
            }
            undeclared = Set.copyOf(undeclared);
            if (maxConnectionWindow < 0) {
                throw new IllegalArgumentException("a maximum connection window is at least 1 (0: none declared)");
            }
        }

        /**
         * The parameters without a declared maximum connection window: its additive increase then has none (clause
         * 10.1.2).
         */
        public Congestion(
                final double decreaseFactor,
                final long linkRateMbps,
                final double targetUtilization,
                final Duration hintInterval,
                final int initialPathWindow,
                final int initialConnectionWindow,
                final Set<String> undeclared,
                final Duration activeWindow) {
            this(
                    decreaseFactor,
                    linkRateMbps,
                    targetUtilization,
                    hintInterval,
                    initialPathWindow,
                    initialConnectionWindow,
                    undeclared,
                    activeWindow,
                    0);
        }

        /**
         * The most a connection window of this device can be after growing from {@code grown}: the declared maximum
         * where there is one (clause 10.1.2: the window never exceeds it), else {@code grown} itself.
         */
        public double capped(final double grown) {
            return maxConnectionWindow > 0 ? Math.min(grown, maxConnectionWindow) : grown;
        }

        /**
         * The parameters without an active window: it is then the hint interval (clause 8.2.4, Table 12-2).
         *
         * @deprecated use the canonical constructor; kept so that code written against 0.12 still compiles
         */
        @Deprecated(since = "0.13")
        public Congestion(
                final double decreaseFactor,
                final long linkRateMbps,
                final double targetUtilization,
                final Duration hintInterval,
                final int initialPathWindow,
                final int initialConnectionWindow,
                final Set<String> undeclared) {
            this(
                    decreaseFactor,
                    linkRateMbps,
                    targetUtilization,
                    hintInterval,
                    initialPathWindow,
                    initialConnectionWindow,
                    undeclared,
                    hintInterval);
        }
    }

    /**
     * The declared timers (spec clauses 6.6.2, 6.7.1, 6.7.3, 8.1.4), the tolerance of the device's timers (a timing
     * check allows the declared value plus {@code tolerance}, never less) and the retry interval the device puts in
     * its NACKs RECEIVER_NOT_READY (clause 9.1.9; empty when the device declares none, which that clause forbids).
     */
    public record Timers(
            Duration minRto,
            Duration initialRto,
            Duration maxRto,
            Duration ackDelay,
            int ackCoalescing,
            int unhealthyThreshold,
            Duration connectionTimeout,
            Duration tolerance,
            Optional<Duration> receiverNotReadyRetry) {
        public Timers {
            Objects.requireNonNull(minRto, "minRto");
            Objects.requireNonNull(initialRto, "initialRto");
            Objects.requireNonNull(maxRto, "maxRto");
            Objects.requireNonNull(ackDelay, "ackDelay");
            Objects.requireNonNull(connectionTimeout, "connectionTimeout");
            Objects.requireNonNull(tolerance, "tolerance");
            Objects.requireNonNull(receiverNotReadyRetry, "receiverNotReadyRetry");
        }

        /** Timers without a declared receiver-not-ready retry interval. */
        public Timers(
                final Duration minRto,
                final Duration initialRto,
                final Duration maxRto,
                final Duration ackDelay,
                final int ackCoalescing,
                final int unhealthyThreshold,
                final Duration connectionTimeout,
                final Duration tolerance) {
            this(
                    minRto,
                    initialRto,
                    maxRto,
                    ackDelay,
                    ackCoalescing,
                    unhealthyThreshold,
                    connectionTimeout,
                    tolerance,
                    Optional.empty());
        }

        /** The longest a test may wait for an ACK the DUT owes: ACK delay plus tolerance (clause 8.1.4). */
        public Duration ackDeadline() {
            return ackDelay.plus(tolerance);
        }
    }

    /** How the wire reaches the device. */
    public enum LinkKind {
        /** The reference in the suite's own process, through {@link QueueWireLink}. */
        EMBEDDED,
        /** Kernel UDP sockets, through {@link UdpWireLink}. */
        UDP,
        /** Raw Ethernet frames on an interface, through {@link RawEthernetWireLink}. */
        RAW;

        /** The name the declaration file uses. */
        public String jsonName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The wire link: its kind and, for {@link LinkKind#RAW}, the interface and MACs (absent MACs are read from the
     * interface or resolved with ARP).
     */
    public record Link(
            LinkKind kind,
            Optional<String> interfaceName,
            Optional<MacAddress> testerMac,
            Optional<MacAddress> dutMac) {
        public Link {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(interfaceName, "interfaceName");
            Objects.requireNonNull(testerMac, "testerMac");
            Objects.requireNonNull(dutMac, "dutMac");
            if (kind == LinkKind.RAW && interfaceName.isEmpty()) {
                throw new IllegalArgumentException("a raw link needs an interface name");
            }
            if (kind != LinkKind.RAW && (interfaceName.isPresent() || testerMac.isPresent() || dutMac.isPresent())) {
                throw new IllegalArgumentException("interface and MACs belong to raw links only");
            }
        }

        public static Link embedded() {
            return new Link(LinkKind.EMBEDDED, Optional.empty(), Optional.empty(), Optional.empty());
        }

        public static Link udp() {
            return new Link(LinkKind.UDP, Optional.empty(), Optional.empty(), Optional.empty());
        }

        public static Link raw(String interfaceName) {
            return new Link(LinkKind.RAW, Optional.of(interfaceName), Optional.empty(), Optional.empty());
        }
    }
}
