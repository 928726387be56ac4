package org.mrconf.vectors;

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
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.mrconf.dut.ConnectionSpec;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.DutControl;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.DutCounters;
import org.mrconf.dut.DutProfile;
import org.mrconf.dut.RegionAccess;
import org.mrconf.dut.WireLink;
import org.mrconf.dut.WorkRequest;
import org.mrconf.pcap.CaptureFileException;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.TesterPeer;
import org.mrconf.wire.AckPacket;
import org.mrconf.wire.NackPacket;
import org.mrconf.wire.PacketFlags;
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
            Optional<DutProfile.Timers> timers,
            Optional<DutProfile.Congestion> congestion) {
        /** Nothing declared. */
        public static final Declared NONE =
                new Declared(OptionalInt.empty(), DEFAULT_QUIET, Optional.empty(), Optional.empty());

        /** The declared connection timeout (clause 6.7.3), if the device declares its timers. */
        public Optional<Duration> connectionTimeout() {
            return timers.map(DutProfile.Timers::connectionTimeout);
        }

        /**
         * The declarations of a device's profile. Its quiet window outlasts twice its ACK deadline (a late but legal
         * ACK, clause 8.1.4) and its initial RTO plus tolerance (a retransmission that must not come, clause 6.6.2),
         * and is never under {@link #MIN_QUIET}. A DUT that is merely slow cannot fail by it: what a vector expects
         * to see is waited for ({@link Arrivals}); only what must not happen is watched for this long.
         */
        public static Declared of(final DutProfile.Parameters parameters) {
            final DutProfile.Timers timers = parameters.timers();
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
    static final int ATTEMPTS = 2;

    /**
     * As {@link #run(TestVector, DutControl, WireLink)}, knowing what the device declares. A vector with steps gets up
     * to {@link #ATTEMPTS} attempts while they end INCONCLUSIVE; the verdict then names every attempt's reason.
     */
    public static void run(
            final TestVector vector, final DutControl control, final WireLink link, final Declared declared)
            throws DutControlException, CaptureFileException, java.io.IOException, InterruptedException {
        final int attempts = vector.sidecar().steps().isEmpty() ? 1 : ATTEMPTS;
        final List<String> reasons = new ArrayList<>();
        for (int attempt = 1; ; attempt++) {
            try {
                attempt(vector, control, link, declared);
                return;
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
            final TestVector vector, final DutControl control, final WireLink link, final Declared declared)
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
                        failures);
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
            checkResponses(sidecar.expect(), answers, sidecar.setup().initialPsn(), failures);
            if (sidecar.expect().toTesterPort()) {
                checkToTesterPort(answers, link.testerPort(), failures);
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
                final int coalescing =
                        declared.timers().map(DutProfile.Timers::ackCoalescing).orElse(DEFAULT_ACK_COALESCING);
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
            checkCompletions(sidecar.expect(), control, completions, failures);
            checkCounters(sidecar.expect(), before, control.readCounters(), failures);
            checkRegions(sidecar.expect(), control, regions, failures);
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

    /** Clauses 4.1.3 and 4.2.3: everything the DUT sent went to the tester's MetaRoCE port. */
    private static void checkToTesterPort(
            final List<ReceivedPacket> answers, final int testerPort, final List<String> failures) {
        for (final ReceivedPacket answer : answers) {
            if (answer.captured().destinationPort() != testerPort) {
                failures.add("the DUT sent " + answer + " to UDP port "
                        + answer.captured().destinationPort() + ", not to the tester's port " + testerPort);
                return;
            }
        }
    }

    private static void checkResponses(
            final Sidecar.Expect expect,
            final List<ReceivedPacket> answers,
            final long initialPsn,
            final List<String> failures) {
        for (final Sidecar.ResponseExpectation response : expect.responses()) {
            final long count = answers.stream()
                    .filter(p -> matches(response, p, initialPsn))
                    .count();
            if (count < response.atLeast()) {
                failures.add(String.format(
                        "expected at least %d %s from the DUT, got %d (the DUT sent: %s)",
                        response.atLeast(), describe(response), count, summary(answers)));
            }
            if (response.atMost().isPresent()) {
                final long fresh = answers.stream()
                        .filter(p -> matches(response, p, initialPsn))
                        .filter(p -> p.data()
                                .map(d -> (d.header().flags() & PacketFlags.RETRANSMISSION) == 0)
                                .orElse(true))
                        .count();
                if (fresh > response.atMost().getAsInt()) {
                    failures.add(String.format(
                            "expected at most %d %s from the DUT (first transmissions), got %d (the DUT sent: %s)",
                            response.atMost().getAsInt(), describe(response), fresh, summary(answers)));
                }
            }
        }
        for (final Sidecar.ResponseExpectation never : expect.never()) {
            final List<ReceivedPacket> forbidden =
                    answers.stream().filter(p -> matches(never, p, initialPsn)).toList();
            if (!forbidden.isEmpty()) {
                failures.add("expected no " + describe(never) + " from the DUT, got " + forbidden.size() + ": "
                        + forbidden.get(0));
            }
        }
    }

    static boolean matches(
            final Sidecar.ResponseExpectation expectation, final ReceivedPacket packet, final long initialPsn) {
        if (packet.opcode().isEmpty() || !packet.opcode().get().name().equals(expectation.opcode())) {
            return false;
        }
        final var header =
                packet.ack().map(AckPacket::header).or(() -> packet.nack().map(NackPacket::header));
        if (expectation.path().isPresent()
                && (header.isEmpty()
                        || header.get().pathId() != expectation.path().getAsLong())) {
            return false;
        }
        if (expectation.cumulativePsnOffset().isPresent()
                && packet.ack()
                        .map(AckPacket::cumulativePsn)
                        .or(() -> packet.nack().map(NackPacket::cumulativePsn))
                        .map(psn -> ((psn - initialPsn) & 0xFFFF_FFFFL)
                                != expectation.cumulativePsnOffset().getAsLong())
                        .orElse(true)) {
            return false;
        }
        if (expectation.rejected().isPresent()
                && !packet.nack()
                        .map(n -> names(n, expectation.rejected().get(), initialPsn))
                        .orElse(false)) {
            return false;
        }
        if (expectation.echoedTimestamp().isPresent()
                && !packet.ack()
                        .map(a -> a.echoedTimestamp()
                                == expectation.echoedTimestamp().getAsLong())
                        .orElse(false)) {
            return false;
        }
        if (expectation.ceCount().isPresent()
                && !packet.ack()
                        .map(a -> a.ceCount() == expectation.ceCount().getAsLong())
                        .orElse(false)) {
            return false;
        }
        if (expectation.sack().isPresent()
                && !packet.ack()
                        .map(a -> java.util.Arrays.stream(a.sackBits())
                                .boxed()
                                .toList()
                                .equals(expectation.sack().get()))
                        .orElse(false)) {
            return false;
        }
        return expectation.nackCode().isEmpty()
                || packet.nack()
                        .map(n -> n.code().name().equals(expectation.nackCode().get()))
                        .orElse(false);
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

    private static void checkCompletions(
            final Sidecar.Expect expect,
            final DutControl control,
            final List<DutCompletion> seen,
            final List<String> failures)
            throws DutControlException {
        final long deadline = System.nanoTime() + LIMIT.toNanos();
        while (System.nanoTime() < deadline && !allSeen(expect, seen)) {
            seen.addAll(control.pollCompletions(64, Duration.ofMillis(100)));
        }
        if (expect.noOtherCompletions()) {
            // The DUT was already quiet for its quiet window on the wire and the control channel alike (awaitQuiet).
            seen.addAll(control.pollCompletions(64, Duration.ZERO));
        }
        for (final Sidecar.CompletionExpectation expected : expect.completions()) {
            final DutCompletion actual = seen.stream()
                    .filter(c -> c.wrId() == expected.wrId())
                    .findFirst()
                    .orElse(null);
            if (actual == null) {
                failures.add("expected a completion of work request " + expected.wrId() + " with status "
                        + expected.status() + ", got none within " + LIMIT.toSeconds() + " s");
                continue;
            }
            if (!actual.status().name().equals(expected.status())) {
                failures.add("work request " + expected.wrId() + ": expected status " + expected.status() + ", got "
                        + actual.status());
            }
            if (expected.type().isPresent()
                    && !actual.type().name().equals(expected.type().get())) {
                failures.add("work request " + expected.wrId() + ": expected type "
                        + expected.type().get() + ", got " + actual.type());
            }
            if (expected.immediate().isPresent()
                    && actual.immediate() != expected.immediate().getAsLong()) {
                failures.add(String.format(
                        "work request %d: expected immediate 0x%08x, got 0x%08x",
                        expected.wrId(), expected.immediate().getAsLong(), actual.immediate()));
            }
        }
        if (expect.completionsInOrder()) {
            final List<Long> order = new ArrayList<>();
            for (final DutCompletion completion : seen) {
                if (expect.completions().stream().anyMatch(e -> e.wrId() == completion.wrId())) {
                    order.add(completion.wrId());
                }
            }
            final List<Long> listed = expect.completions().stream()
                    .map(Sidecar.CompletionExpectation::wrId)
                    .toList();
            if (order.size() == listed.size() && !order.equals(listed)) {
                failures.add("expected the completions in the order " + listed + " (clause 7.5.2: MSN order within"
                        + " a stream), got " + order);
            }
        }
        if (expect.noOtherCompletions()) {
            final Set<Long> expectedIds = new java.util.HashSet<>();
            expect.completions().forEach(c -> expectedIds.add(c.wrId()));
            final List<DutCompletion> others =
                    seen.stream().filter(c -> !expectedIds.contains(c.wrId())).toList();
            if (!others.isEmpty()) {
                failures.add("expected no other completion, got " + others);
            }
        }
    }

    static boolean allSeen(final Sidecar.Expect expect, final List<DutCompletion> seen) {
        return allCompleted(
                expect.completions().stream()
                        .map(Sidecar.CompletionExpectation::wrId)
                        .toList(),
                seen);
    }

    /** Whether every work request of {@code wrIds} has a completion in {@code seen}. */
    static boolean allCompleted(final List<Long> wrIds, final List<DutCompletion> seen) {
        return wrIds.stream().allMatch(id -> seen.stream().anyMatch(c -> c.wrId() == id));
    }

    private static void checkCounters(
            final Sidecar.Expect expect,
            final Map<String, Long> before,
            final Map<String, Long> after,
            final List<String> failures) {
        for (final Sidecar.CounterExpectation counter : expect.counters()) {
            if (!after.containsKey(counter.name())) {
                throw new TestAbortedException(
                        "the DUT does not report counter " + counter.name() + ", which vector expectations need");
            }
            final long delta = DutCounters.delta(before, after, counter.name());
            if (counter.delta().isPresent() && delta != counter.delta().getAsLong()) {
                failures.add("counter " + counter.name() + ": expected to grow by "
                        + counter.delta().getAsLong() + ", grew by " + delta);
            }
            if (counter.atLeast().isPresent() && delta < counter.atLeast().getAsLong()) {
                failures.add("counter " + counter.name() + ": expected to grow by at least "
                        + counter.atLeast().getAsLong() + ", grew by " + delta);
            }
        }
    }

    private static void checkRegions(
            final Sidecar.Expect expect,
            final DutControl control,
            final Map<String, PlaceholderRewriter.ActualRegion> regions,
            final List<String> failures)
            throws DutControlException {
        for (final Sidecar.RegionContent content : expect.regions()) {
            final PlaceholderRewriter.ActualRegion region = regions.get(content.region());
            final byte[] bytes =
                    control.readRegion(region.key(), region.address() + content.offset(), content.length());
            final String actualHex = HexFormat.of().formatHex(bytes);
            if (content.hex().isPresent() && !content.hex().get().equals(actualHex)) {
                failures.add(String.format(
                        "region %s at offset %d: expected %s, got %s",
                        content.region(),
                        content.offset(),
                        abbreviate(content.hex().get()),
                        abbreviate(actualHex)));
            }
            if (content.sha256().isPresent() && !content.sha256().get().equals(sha256(bytes))) {
                failures.add(String.format(
                        "region %s at offset %d, %d bytes: expected SHA-256 %s, got %s",
                        content.region(),
                        content.offset(),
                        content.length(),
                        content.sha256().get(),
                        sha256(bytes)));
            }
        }
    }

    private static Set<RegionAccess> access(final List<String> names) {
        final Set<RegionAccess> access = EnumSet.noneOf(RegionAccess.class);
        names.forEach(name -> access.add(RegionAccess.valueOf(name)));
        return access;
    }

    /** Whether {@code nack} names the rejected packet {@code rejected}: its PSN, stream and MSN (Table 5-10). */
    private static boolean names(final NackPacket nack, final Sidecar.Rejected rejected, final long initialPsn) {
        return ((nack.header().psn() - initialPsn) & 0xFFFF_FFFFL) == rejected.psnOffset()
                && nack.streamId() == rejected.stream()
                && nack.messageSequenceNumber() == rejected.msn();
    }

    private static String describe(final Sidecar.ResponseExpectation response) {
        final StringBuilder text = new StringBuilder(response.opcode());
        response.path().ifPresent(p -> text.append(" on path ").append(p));
        response.cumulativePsnOffset()
                .ifPresent(c -> text.append(" with cumulative PSN base+").append(c));
        response.nackCode().ifPresent(c -> text.append(" with code ").append(c));
        return text.toString()
                        .toLowerCase(Locale.ROOT)
                        .replace(response.opcode().toLowerCase(Locale.ROOT), response.opcode())
                + response.sack().map(bits -> " with SACK bits " + bits).orElse("")
                + (response.echoedTimestamp().isPresent()
                        ? " echoing timestamp " + response.echoedTimestamp().getAsLong()
                        : "")
                + (response.ceCount().isPresent()
                        ? " with CE count " + response.ceCount().getAsLong()
                        : "")
                + response.rejected()
                        .map(r -> String.format(
                                " naming PSN base+%d, stream %d, MSN %d", r.psnOffset(), r.stream(), r.msn()))
                        .orElse("");
    }

    /** Whether {@code bytes} are what {@code content} says. */
    static boolean holds(final Sidecar.RegionContent content, final byte[] bytes) {
        return content.hex()
                        .map(hex -> hex.equals(HexFormat.of().formatHex(bytes)))
                        .orElse(true)
                && content.sha256().map(sha -> sha.equals(sha256(bytes))).orElse(true);
    }

    static String summary(final List<ReceivedPacket> answers) {
        if (answers.isEmpty()) {
            return "nothing";
        }
        return answers.stream()
                        .limit(8)
                        .map(ReceivedPacket::toString)
                        .reduce((a, b) -> a + "; " + b)
                        .orElse("")
                + (answers.size() > 8 ? "; and " + (answers.size() - 8) + " more" : "");
    }

    private static String abbreviate(final String hex) {
        return hex.length() <= 64 ? hex : hex.substring(0, 64) + "... (" + hex.length() / 2 + " bytes)";
    }

    static String sha256(final byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (final NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
