package org.mrconf.replay;

import java.net.Inet6Address;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.mrconf.dut.ConnectionSpec;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.DutControl;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.RegionAccess;
import org.mrconf.dut.WireLink;
import org.mrconf.dut.WorkRequest;
import org.mrconf.pcap.CaptureFileException;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.StallAllowance;
import org.mrconf.peer.StallMonitor;
import org.mrconf.peer.TesterPeer;
import org.opentest4j.TestAbortedException;

/**
 * Replays one vector against a device through the DUT interfaces only: sets the DUT up through its control channel as
 * the sidecar says, sends the stimulus (placeholders rewritten to the DUT's values) over the wire link, waits until the
 * DUT has been quiet for the device's quiet window ({@link Declared#quiet()}) and everything the vector expects to see
 * has come ({@link Arrivals}), then checks every expectation. A broken expectation is an
 * {@link AssertionError} naming the expected and the actual value (FAIL); a failed control request or link is a
 * {@link DutControlException} (ERROR).
 */
public final class VectorReplay {
    /** The tester's connection id, which the DUT's packets carry. */
    public static final long TESTER_CONNECTION = 0x0002_0002L;
    /** The DUT's connection id, which the stimulus is rewritten to. */
    public static final long DUT_CONNECTION = 0x0001_0001L;

    /** The quiet window of a device that declares no timers. */
    static final Duration DEFAULT_QUIET = Duration.ofMillis(300);
    /** The shortest quiet window, whatever the device declares: far above any scheduling hiccup of a host. */
    static final Duration MIN_QUIET = Duration.ofMillis(100);
    /** The least time a silent DUT is given for what a vector expects ({@link #patience(Duration)}). */
    static final Duration PATIENCE = Duration.ofSeconds(1);

    static final Duration LIMIT = Duration.ofSeconds(5);
    /** How long one poll of the completions waits while the replay watches for quiet. */
    private static final Duration POLL = Duration.ofMillis(25);

    private static final long REGION_BASE = 0x7000_0000L;
    private static final long REGION_STRIDE = 1L << 27;
    private static final long MAX_GAP_NS = 100_000_000L;
    /** The MTU of the tester's side of the connection; the tester sends nothing through it but ACKs. */
    private static final int TESTER_MTU = 1500;

    private VectorReplay() {}

    /**
     * Replays {@code vector} against the device behind {@code control} and {@code link}; returns normally when every
     * expectation holds. A {@link TestAbortedException} means the vector cannot be judged on this device (INCONCLUSIVE).
     */
    public static void run(final TestVector vector, final DutControl control, final WireLink link)
            throws DutControlException, CaptureFileException, java.io.IOException, InterruptedException {
        run(vector, control, link, Declared.NONE);
    }

    /**
     * What the device declares that replay needs: its connection MTU (an await's {@code fullSegments}; without it
     * such a vector is INCONCLUSIVE), the quiet window: how long the DUT must have sent nothing before replay takes
     * it that nothing more will come, and its timers ({@link HeldAckChecks} judges them; without them such a check
     * is INCONCLUSIVE), among them the connection timeout (held ACKs must end well before it; without it, within
     * {@link #DEFAULT_HOLD_LIMIT}), and its congestion parameters ({@link CongestionWindowCheck} judges its windows
     * by them; without them such a check is INCONCLUSIVE).
     */
    public record Declared(
            OptionalInt mtu,
            Duration quiet,
            Optional<DeviceDeclaration.Timers> timers,
            Optional<DeviceDeclaration.Congestion> congestion) {
        /** Nothing declared. */
        public static final Declared NONE =
                new Declared(OptionalInt.empty(), DEFAULT_QUIET, Optional.empty(), Optional.empty());

        /** The declared connection timeout (clause 6.7.3), if the device declares its timers. */
        public Optional<Duration> connectionTimeout() {
            return timers.map(DeviceDeclaration.Timers::connectionTimeout);
        }

        /**
         * The declarations of a device's profile. Its quiet window outlasts twice its ACK deadline (a late but legal
         * ACK, clause 8.1.4) and its initial RTO plus tolerance (a retransmission that must not come, clause 6.6.2),
         * and is never under {@link #MIN_QUIET}. A DUT that is merely slow cannot fail by it: what a vector expects
         * to see is waited for ({@link Arrivals}); only what must not happen is watched for this long.
         */
        public static Declared of(final DeviceDeclaration.Parameters parameters) {
            final DeviceDeclaration.Timers timers = parameters.timers();
            final Duration quiet = longest(
                    MIN_QUIET,
                    timers.ackDeadline().multipliedBy(2),
                    timers.initialRto().plus(timers.tolerance()));
            return new Declared(
                    OptionalInt.of(parameters.mtu()), quiet, Optional.of(timers), Optional.of(parameters.congestion()));
        }
    }

    /** The ACK coalescing count of a device that declares none (clause 8.1.4). */
    static final int DEFAULT_ACK_COALESCING = 16;

    /** How long ACKs may be held back when the device declares no connection timeout. */
    static final Duration DEFAULT_HOLD_LIMIT = Duration.ofSeconds(1);

    /**
     * How many times a vector in which the DUT sends is replayed while an attempt cannot decide. Such a vector can be
     * undecided because of a timer of the DUT's that the tester does not control (an early expiry that collapsed a
     * window, clause 10.1.3). Each attempt starts from a reset DUT and a new connection and is sound on its own: the
     * first that passes or fails is the verdict, so another attempt can only decide what one could not, never turn a
     * failure into a pass.
     */
    static final int ATTEMPTS = 3;

    /**
     * As {@link #run(TestVector, DutControl, WireLink)}, knowing what the device declares. A vector with steps gets up
     * to {@link #ATTEMPTS} attempts while they end INCONCLUSIVE; the verdict then names every attempt's reason.
     */
    public static void run(
            final TestVector vector, final DutControl control, final WireLink link, final Declared declared)
            throws DutControlException, CaptureFileException, java.io.IOException, InterruptedException {
        run(vector, control, link, declared, StallMonitor.none());
    }

    /**
     * As {@link #run(TestVector, DutControl, WireLink, Declared)}, with the run's {@link StallMonitor}: a timing check
     * that misses its bound by no more than the host's longest stall in its measuring window makes the attempt
     * undecided ({@link StallAllowance}), never a failure.
     */
    public static void run(
            final TestVector vector,
            final DutControl control,
            final WireLink link,
            final Declared declared,
            final StallMonitor stalls)
            throws DutControlException, CaptureFileException, java.io.IOException, InterruptedException {
        run(vector, control, link, declared, stalls, peer -> {});
    }

    /**
     * As {@link #run(TestVector, DutControl, WireLink, Declared, StallMonitor)}, telling {@code peerOpened} of each
     * attempt's tester peer as it starts, so that the runner keeps what it sent and received as the vector's evidence
     * (its packets and pcap), as it does for a case.
     */
    public static void run(
            final TestVector vector,
            final DutControl control,
            final WireLink link,
            final Declared declared,
            final StallMonitor stalls,
            final java.util.function.Consumer<TesterPeer> peerOpened)
            throws DutControlException, CaptureFileException, java.io.IOException, InterruptedException {
        final int attempts = vector.sidecar().steps().isEmpty() ? 1 : ATTEMPTS;
        final List<String> reasons = new ArrayList<>();
        for (int attempt = 1; ; attempt++) {
            try {
                attempt(vector, control, link, declared, stalls, peerOpened);
                return;
            } catch (final VectorNotApplicable e) {
                if (!e.worthAnotherAttempt() || attempt >= attempts) {
                    throw e; // the device's configuration: another attempt meets the same
                }
                reasons.add(e.getMessage()); // maybe a timer of the device's: another attempt may see it arise
            } catch (final TestAbortedException e) {
                reasons.add(e.getMessage());
                if (attempt >= attempts) {
                    throw reasons.size() == 1
                            ? e
                            : new TestAbortedException("every one of " + attempts + " attempts was undecided: "
                                    + String.join("; then ", reasons));
                }
            }
        }
    }

    private static void attempt(
            final TestVector vector,
            final DutControl control,
            final WireLink link,
            final Declared declared,
            final StallMonitor stalls,
            final java.util.function.Consumer<TesterPeer> peerOpened)
            throws DutControlException, CaptureFileException, java.io.IOException, InterruptedException {
        final OptionalInt mtu = declared.mtu();
        final Sidecar sidecar = vector.sidecar();
        if (mtu.isEmpty() && sidecar.steps().stream().anyMatch(s -> s instanceof Sidecar.Await a && a.fullSegments())) {
            throw new TestAbortedException(
                    "the vector checks segmentation at the MTU, and the device's MTU is unknown");
        }
        control.reset();
        // What the previous vector's connection still had in flight would otherwise be read as this one's (same ids).
        link.discardWaiting();
        final ConnectionSpec spec = new ConnectionSpec(
                DUT_CONNECTION,
                TESTER_CONNECTION,
                link.testerAddress(),
                link.testerPort(),
                sidecar.setup().paths(),
                sidecar.setup().streams(),
                sidecar.setup().initialSendPsn(),
                sidecar.setup().initialPsn(),
                sidecar.setup().peerMaxOutstandingMessages(),
                java.util.Optional.empty());
        control.createConnection(spec);
        final Map<String, PlaceholderRewriter.ActualRegion> regions = new HashMap<>();
        long base = REGION_BASE;
        for (final Sidecar.Region region : sidecar.setup().regions()) {
            final long key = control.registerRegion(base, region.length(), access(region.access()));
            final byte[] fill = new byte[(int) region.length()];
            Arrays.fill(fill, (byte) region.fill());
            region.hex().ifPresent(hex -> {
                final byte[] bytes = HexFormat.of().parseHex(hex);
                System.arraycopy(bytes, 0, fill, 0, bytes.length);
            });
            control.writeRegion(key, base, fill);
            regions.put(region.name(), new PlaceholderRewriter.ActualRegion(base, key, region.length()));
            base += REGION_STRIDE;
        }
        for (final Sidecar.Receive receive : sidecar.setup().receives()) {
            final PlaceholderRewriter.ActualRegion region = regions.get(receive.region());
            control.postReceive(new WorkRequest(
                    DUT_CONNECTION,
                    receive.stream(),
                    receive.wrId(),
                    region.key(),
                    region.address() + receive.offset(),
                    receive.length()));
        }
        final PlaceholderRewriter rewriter = new PlaceholderRewriter(
                sidecar.placeholders(), DUT_CONNECTION, sidecar.setup().initialPsn(), regions);
        final Map<String, Long> before = control.readCounters();
        final List<StimulusSender.Frame> frames = StimulusSender.read(vector.stimulus());
        try (TesterPeer peer = TesterPeer.start(link)) {
            peerOpened.accept(peer);
            final StimulusSender stimulus =
                    new StimulusSender(frames, sidecar.asCaptured(), sidecar.udpChecksums(), peer, rewriter);
            final int mark = peer.mark();
            final List<String> failures = new ArrayList<>();
            final List<DutCompletion> completions = new ArrayList<>();
            SenderSteps steps = null;
            PlacementChecks placement = null;
            if (sidecar.steps().isEmpty()) {
                // Whatever data the DUT sends in answer (READ_RESPONSEs) is acknowledged at once, as a correct
                // requester does; otherwise the DUT's timer resends it until its backoff outlasts the quiet window.
                peer.connection(spec, TESTER_MTU).autoAck(true);
                placement = sidecar.expect().placedWhenAcknowledged()
                        ? new PlacementChecks(peer, control, regions, mark, declared.quiet(), failures)
                        : null;
                send(stimulus, "recorded".equals(sidecar.pacing()), placement);
            } else {
                // The DUT sends: the steps acknowledge each of its packets at once, as a correct receiver may.
                steps = new SenderSteps(
                        sidecar,
                        mtu.orElse(0),
                        declared.connectionTimeout().orElse(DEFAULT_HOLD_LIMIT),
                        declared.quiet(),
                        declared.timers(),
                        declared.congestion(),
                        link.testerAddress() instanceof Inet6Address ? 40 : 20,
                        control,
                        peer,
                        peer.connection(spec, TESTER_MTU),
                        mark,
                        rewriter,
                        stimulus,
                        regions,
                        completions,
                        failures,
                        stalls);
                steps.run(vector.stimulus());
            }
            awaitQuiet(
                    peer,
                    mark,
                    control,
                    completions,
                    declared.quiet(),
                    new Arrivals(sidecar.expect(), sidecar.setup().initialPsn(), control, before, regions));
            if (steps != null) {
                steps.close();
                steps.checkSent();
            }
            if (placement != null) {
                placement.judge();
            }
            final List<ReceivedPacket> answers = peer.recorder().since(mark);
            ResponseChecks.checkResponses(
                    sidecar.expect(), answers, sidecar.setup().initialPsn(), failures);
            if (sidecar.expect().toTesterPort()) {
                ResponseChecks.checkToTesterPort(answers, link.testerPort(), failures);
            }
            // A check over what the DUT sent that finds nothing to judge (no ACK, no datagram) is INCONCLUSIVE only
            // when nothing else failed: a DUT that sent nothing because it broke an expectation above has failed.
            final List<Runnable> sentChecks = new ArrayList<>();
            if (sidecar.expect().nacksFirst()) {
                sentChecks.add(() -> SentChecks.nacksFirst(answers, failures));
            }
            if (sidecar.expect().rateHintInEveryAck()) {
                sentChecks.add(() -> SentChecks.rateHintInEveryAck(answers, failures));
            }
            if (sidecar.expect().noCongestionSignals()) {
                sentChecks.add(() -> SentChecks.noCongestionSignals(answers, failures));
            }
            if (sidecar.expect().ackCoalescing()) {
                final int coalescing = declared.timers()
                        .map(DeviceDeclaration.Timers::ackCoalescing)
                        .orElse(DEFAULT_ACK_COALESCING);
                sentChecks.add(
                        () -> SentChecks.ackCoalescing(answers, sidecar.setup().initialPsn(), coalescing, failures));
            }
            if (sidecar.expect().distinctSinkHandles()) {
                sentChecks.add(() -> SentChecks.distinctSinkHandles(answers, failures));
            }
            if (sidecar.expect().sentUdpChecksums()) {
                final boolean wire = link.can(WireLink.Capability.WIRE_CHECKSUMS);
                sentChecks.add(() -> SentChecks.udpChecksums(answers, wire, failures));
            }
            TestAbortedException undecided = null;
            for (final Runnable check : sentChecks) {
                try {
                    check.run();
                } catch (final TestAbortedException e) {
                    undecided = undecided == null ? e : undecided;
                }
            }
            OutcomeChecks.checkCompletions(sidecar.expect(), control, completions, failures);
            OutcomeChecks.checkCounters(sidecar.expect(), before, control.readCounters(), failures);
            OutcomeChecks.checkRegions(sidecar.expect(), control, regions, failures);
            if (undecided != null && failures.isEmpty()) {
                throw undecided;
            }
            if (!failures.isEmpty()) {
                throw new AssertionError("vector " + vector.id() + " (clauses " + String.join(" ", sidecar.clauses())
                        + "):\n  " + String.join("\n  ", failures));
            }
        } finally {
            control.reset();
        }
    }

    /**
     * Sends the whole stimulus, as fast as possible or with the recorded gaps (each at most {@link #MAX_GAP_NS}); with
     * {@code placement}, each frame's answer is awaited and judged before the next goes out.
     */
    private static void send(final StimulusSender stimulus, final boolean recorded, final PlacementChecks placement)
            throws java.io.IOException, InterruptedException, DutControlException {
        long previousNs = Long.MIN_VALUE;
        for (int i = 0; i < stimulus.size(); i++) {
            final long atNs = stimulus.capturedAtNs(i);
            if (recorded && previousNs != Long.MIN_VALUE && atNs > previousNs) {
                final long gapNs = Math.min(atNs - previousNs, MAX_GAP_NS);
                Thread.sleep(gapNs / 1_000_000, (int) (gapNs % 1_000_000));
            }
            previousNs = atNs;
            final byte[] sent = stimulus.send(i);
            if (placement != null) {
                placement.afterSent(i, sent);
            }
        }
    }

    /**
     * How long a DUT may stay silent while something the vector expects has not come: the longer of 1 s and three
     * quiet windows, far past any answer the DUT's declarations allow, so a slow DUT is not judged early and a
     * broken one does not hold the run for {@link #LIMIT}.
     */
    static Duration patience(final Duration quiet) {
        return longest(PATIENCE, quiet.multipliedBy(3));
    }

    private static Duration longest(final Duration... durations) {
        return java.util.Arrays.stream(durations).max(Duration::compareTo).orElseThrow();
    }

    /**
     * Waits until the DUT has been quiet for {@code quiet} on the wire (no packet) and on its control channel (no
     * completion) at once, and everything the vector expects to see has come (or it has been silent for
     * {@link #patience(Duration)}), at most {@link #LIMIT}; the completions it reported meanwhile go to
     * {@code completions}.
     */
    private static void awaitQuiet(
            final TesterPeer peer,
            final int mark,
            final DutControl control,
            final List<DutCompletion> completions,
            final Duration quiet,
            final Arrivals arrivals)
            throws DutControlException {
        final long startNs = System.nanoTime();
        long lastNs = startNs;
        int packets = peer.recorder().since(mark).size();
        while (System.nanoTime() - startNs < LIMIT.toNanos()) {
            final List<DutCompletion> polled = control.pollCompletions(64, POLL);
            final int now = peer.recorder().since(mark).size();
            if (!polled.isEmpty() || now != packets) {
                completions.addAll(polled);
                packets = now;
                lastNs = System.nanoTime();
            } else {
                final long silentNs = System.nanoTime() - lastNs;
                // Something expected still missing after a long silence is judged missing: the DUT owes it long since.
                if (silentNs >= quiet.toNanos()
                        && (silentNs >= patience(quiet).toNanos()
                                || arrivals.allCame(peer.recorder().since(mark), completions))) {
                    return;
                }
            }
        }
    }

    private static Set<RegionAccess> access(final List<String> names) {
        final Set<RegionAccess> access = EnumSet.noneOf(RegionAccess.class);
        names.forEach(name -> access.add(RegionAccess.valueOf(name)));
        return access;
    }

    static String sha256(final byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (final NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
