package org.mrconf.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.DutControl;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.WorkRequest;
import org.mrconf.pcap.CaptureFileException;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.TesterPeer;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.NackCode;
import org.opentest4j.TestAbortedException;

/**
 * Runs the {@link Sidecar#steps()} of a vector in which the DUT takes part as a sender: posts work through the control
 * channel, waits for the messages the DUT sends and compares them field by field, sends stimulus frames with the
 * DUT's actual values, and checks placement and completions on the way. The tester acknowledges every data packet and
 * READ_REQUEST of the DUT at once (a correct receiver; coalescing is optional) unless an {@code acks} step holds its
 * ACKs back, and NACKs a message when a {@code nack} step says so. Broken expectations are collected as
 * failures; a message the DUT never sends ends the steps.
 */
final class SenderSteps {
    private static final long POLL_MS = 5;

    private final Sidecar sidecar;
    private final int mtu;
    private final Duration holdLimit;
    /** The device's quiet window ({@link VectorReplay.Declared#quiet()}). */
    private final Duration quiet;

    private long holdStartNs;

    /** How long before the hold limit a wait inside a hold gives up, leaving time for the steps that end it. */
    private static final Duration HOLD_MARGIN = Duration.ofSeconds(1);

    private final int ipHeaderLength;
    private final DutControl control;
    private final TesterPeer peer;
    private final int mark;
    private final PlaceholderRewriter rewriter;
    private final StimulusSender stimulus;
    private final Map<String, PlaceholderRewriter.ActualRegion> regions;
    private final List<DutCompletion> completions;
    private final List<String> failures;

    private final PeerConnection connection;
    private boolean acksHeld;
    /** The rate hint the tester's ACKs carry since the latest acks step that gave one, in Mbit/s. */
    private long rateHintMbps;

    private final Optional<org.mrconf.dut.DeviceDeclaration.Timers> timers;
    private volatile boolean loseFirst;
    /** What the tester received but treats as lost while {@link #loseFirst}. */
    private final List<ReceivedPacket> lost = new ArrayList<>();
    /** The cumulative PSN of the last ACK the tester sent on each path. */
    private final Map<Integer, Long> acknowledgedUpTo = new ConcurrentHashMap<>();

    private final Consumer<ReceivedPacket> acknowledger = this::acknowledge;
    /** What the DUT sent, and the messages await steps claimed and named. */
    private final AwaitedMessages messages;
    /** The checks that need a tester that acknowledged nothing. */
    private final HeldAckChecks heldAckChecks;
    /** The losses {@code lose} shapes and the check of their repair. */
    private final LossRepairCheck lossRepair;
    /** The wait a NACK RECEIVER_NOT_READY with a retry-after asks for. */
    private final RetryWaitCheck retryWait;
    /** The run's stall monitor: a timing miss within the host's stall is INCONCLUSIVE ({@link
     * org.mrconf.peer.StallAllowance}).
     */
    private final org.mrconf.peer.StallMonitor stalls;
    /** How much older than the packet's own each ACK's echoed timestamp is ({@code echoAge}), in nanoseconds. */
    private volatile long echoAgeNs;
    /** The CE count every ACK of the tester reports since the latest acks step that gave one ({@code ceCount}). */
    private volatile int ceCount;
    /** The congestion windows as the tester knows them from its ACKs, and their checks. */
    private final CongestionWindowCheck congestionWindows;
    /** The paths the tester keeps silent, and the path-health checks. */
    private final PathHealthCheck pathHealth;
    /** How many data packets the DUT had sent when the latest acks step began to hold ACKs back. */
    private int heldFrom;
    /**
     * How long after the first packet of the latest hold the acks step that released it sent its ACKs, by the tester's
     * clock (-1: no hold released, or nothing sent in it).
     */
    private long releasedAfterNs = -1;

    SenderSteps(
            final Sidecar sidecar,
            final int mtu,
            final Duration holdLimit,
            final Duration quiet,
            final Optional<org.mrconf.dut.DeviceDeclaration.Timers> timers,
            final Optional<org.mrconf.dut.DeviceDeclaration.Congestion> congestion,
            final int ipHeaderLength,
            final DutControl control,
            final TesterPeer peer,
            final PeerConnection connection,
            final int mark,
            final PlaceholderRewriter rewriter,
            final StimulusSender stimulus,
            final Map<String, PlaceholderRewriter.ActualRegion> regions,
            final List<DutCompletion> completions,
            final List<String> failures,
            final org.mrconf.peer.StallMonitor stalls) {
        this.sidecar = sidecar;
        this.mtu = mtu;
        this.timers = timers;
        this.holdLimit = holdLimit;
        this.quiet = quiet;
        this.ipHeaderLength = ipHeaderLength;
        this.control = control;
        this.peer = peer;
        this.connection = connection;
        this.mark = mark;
        this.rewriter = rewriter;
        this.stimulus = stimulus;
        this.regions = regions;
        this.completions = completions;
        this.failures = failures;
        this.messages = new AwaitedMessages(
                peer,
                mark,
                rewriter,
                failures,
                stalls,
                congestion.filter(c -> !AwaitedMessages.windowsMayShrink(sidecar)));
        this.heldAckChecks = new HeldAckChecks(
                sidecar,
                timers,
                quiet,
                peer,
                control,
                completions,
                failures,
                this::sentPackets,
                this::outstanding,
                congestion
                        .map(org.mrconf.dut.DeviceDeclaration.Congestion::initialConnectionWindow)
                        .orElse(0),
                stalls);
        this.stalls = stalls;
        this.retryWait = new RetryWaitCheck(stalls);
        this.lossRepair = new LossRepairCheck(sidecar.setup().initialSendPsn());
        this.congestionWindows =
                new CongestionWindowCheck(congestion, sidecar.setup().paths());
        this.pathHealth = new PathHealthCheck(sidecar, timers);
    }

    /**
     * Runs every step in order; stops early when the DUT never sends a message a step waits for. The tester
     * acknowledges the DUT's packets from now until {@link #close()}.
     */
    void run(final Path stimulusFile)
            throws DutControlException, IOException, InterruptedException, CaptureFileException {
        peer.recorder().addListener(acknowledger);
        int index = 0;
        for (final Sidecar.Step step : sidecar.steps()) {
            final String at = "step " + index++;
            if (step instanceof Sidecar.Post post) {
                post(post);
            } else if (step instanceof Sidecar.Await await) {
                // Packets the tester leaves unacknowledged (held ACKs, a first packet treated as lost, or a silent
                // path's) may fill the DUT's windows.
                if (!messages.await(await, at, acksHeld || loseFirst || pathHealth.silencesAny())) {
                    return;
                }
            } else if (step instanceof Sidecar.Send send) {
                for (final int frame : send.frames()) {
                    if (frame >= stimulus.size()) {
                        throw new CaptureFileException(
                                stimulusFile,
                                at + " ($.steps[" + (index - 1) + "].send.frames) sends frame " + frame
                                        + ", the capture" + " holds " + stimulus.size());
                    }
                    stimulus.send(frame);
                }
            } else if (step instanceof Sidecar.Check check) {
                check(check, at);
            } else if (step instanceof Sidecar.Acks acks) {
                acks(acks);
            } else if (step instanceof Sidecar.Nack nack) {
                nack(nack);
            } else if (step instanceof Sidecar.Control request) {
                control(request);
            }
        }
    }

    /** A control request between packets (invalidate a region, destroy the connection), answered before going on. */
    private void control(final Sidecar.Control request) throws DutControlException {
        if (request.op().equals(Sidecar.Control.INVALIDATE_REGION)) {
            control.invalidateRegion(regions.get(request.region().orElseThrow()).key());
        } else {
            control.destroyConnection(connection.dutConnectionId());
        }
    }

    /** Stops acknowledging. */
    void close() {
        peer.recorder().removeListener(acknowledger);
    }

    /** One ACK per data packet or READ_REQUEST of the DUT, at once (a correct receiver), unless held back. */
    private void acknowledge(final ReceivedPacket received) {
        synchronized (connection) {
            if (loseFirst
                    && received.data()
                            .map(p -> p.header().psn() == sidecar.setup().initialSendPsn())
                            .orElse(false)) {
                lost.add(received); // treated as lost: neither recorded nor acknowledged, until the gap ends
                return;
            }
            if (received.data().map(lossRepair::losesArrival).orElse(false)) {
                return; // an arrival lose names, lost until the describing ACKs
            }
            if (connection.onReceived(received) == null || acksHeld) {
                return;
            }
            final DataPacket data = received.data().orElseThrow();
            if (pathHealth.silences(data.header().pathId())) {
                return; // recorded, never acknowledged: the path's timer is to expire
            }
            sendAck(data.header().pathId(), data.transmitTimestamp());
        }
    }

    private void sendAck(final int path, final long echoedTimestamp) {
        final org.mrconf.peer.PathReceiveState state = connection.receiveState(path);
        acknowledgedUpTo.put(path, state.cumulativePsn());
        congestionWindows.acknowledged(
                path,
                Psn.distance(sidecar.setup().initialSendPsn(), state.cumulativePsn()) + state.sackCount(),
                ceCount);
        try {
            final PacketBuilder ack = connection.ackFor(path, (echoedTimestamp - echoAgeNs) & 0xFFFF_FFFFL);
            if (rateHintMbps > 0) {
                ack.rateHint(rateHintMbps);
            }
            if (ceCount > 0) {
                ack.ceCount(ceCount);
            }
            peer.send(ack);
        } catch (final IOException e) {
            throw new UncheckedIOException("ACK failed", e);
        }
    }

    /** Holds ACKs back, or sends one per path that received anything (describing it all) and ACKs at once again. */
    private void acks(final Sidecar.Acks acks) throws DutControlException, InterruptedException {
        if (acks.waitMs().isPresent()) {
            Thread.sleep(acks.waitMs().getAsLong()); // the round trip of a longer path (clause 6.6.5)
        }
        acks.echoAgeMs().ifPresent(ms -> echoAgeNs = ms * 1_000_000);
        acks.ceCount().ifPresent(count -> ceCount = (int) count);
        pathHealth.acks(acks.silentPaths(), sentPackets(), control);
        if (acks.describe() && (lossRepair.losing() || loseFirst)) {
            // Only losses need the DUT quiet first (a resend of its timer must not cross the ACKs); a describing
            // step without them, such as one reporting CE, answers at once, before the DUT's timers expire.
            lossRepair.settle(this::sentPackets, control);
        }
        synchronized (connection) {
            if (acks.describe()) {
                lossRepair.describe(
                        this::sentPackets, connection, sidecar.setup().paths());
            }
            // The losses of an earlier acks step end here, once a describing step has noted them; this step's own
            // start now, counted from what the DUT has sent so far.
            lossRepair.endLosses();
            lossRepair.lose(acks.lose(), sentPackets(), sidecar.setup().paths());
            final boolean wasHeld = acksHeld || loseFirst;
            if (loseFirst && !acks.loseFirst()) {
                // The gap ends: what the tester pretended to have lost it did receive, so it records it now rather
                // than wait for the DUT's next retransmission (its timer, which the tester does not control).
                lost.forEach(connection::onReceived);
                lost.clear();
            }
            acks.rateHintMbps().ifPresent(hint -> rateHintMbps = hint);
            acksHeld = acks.hold();
            loseFirst = acks.loseFirst();
            if (acksHeld || loseFirst) {
                if (!wasHeld) {
                    holdStartNs = System.nanoTime();
                    heldFrom = sentPackets().size();
                }
                if (acksHeld && !acks.describe()) {
                    return;
                }
            }
            final Duration held = Duration.ofNanos(System.nanoTime() - holdStartNs);
            if (wasHeld && !loseFirst && held.compareTo(holdLimit) >= 0) {
                // Past the connection timeout the DUT may rightly have failed the connection: nothing is judged.
                throw new TestAbortedException("the tester held its ACKs back for " + held.toMillis()
                        + " ms, not less than the device's connection timeout (or " + holdLimit.toMillis()
                        + " ms when it declares none): what follows cannot be judged");
            }
            final Map<Integer, Long> lastTimestamp = new TreeMap<>();
            for (final DataPacket p : sentData()) {
                // A packet on a path the connection does not have gets no ACK; checkSent reports it (clause 5.6.4).
                if (p.header().pathId() < sidecar.setup().paths()) {
                    lastTimestamp.put(p.header().pathId(), p.transmitTimestamp());
                }
            }
            lastTimestamp.forEach((path, timestamp) -> {
                if (!pathHealth.silences(path)) {
                    sendAck(path, timestamp);
                }
            });
            if (wasHeld && !acksHeld) {
                // Taken once the ACKs are out: a later time only makes a resend more often INCONCLUSIVE, never FAIL.
                final List<ReceivedPacket> sent = sentPackets();
                releasedAfterNs = sent.size() > heldFrom
                        ? peer.link().nowNs() - sent.get(heldFrom).receivedNs()
                        : -1;
            }
            if (acks.describe()) {
                holdStartNs = System.nanoTime(); // the DUT has an ACK now: its connection timeout starts again
            }
        }
    }

    /**
     * A NACK for the named message: its first packet's path and PSN (the lowest message offset), stream and MSN, and
     * as its cumulative PSN that PSN (every earlier PSN received: awaits wait for whole messages) with no retry
     * interval.
     */
    private void nack(final Sidecar.Nack nack) throws IOException, DutControlException {
        final boolean waits = nack.retryAfterUs().isPresent() || nack.code().equals("PSN_OUT_OF_WINDOW");
        if (waits) {
            retryWait.beforeNack(control); // an expiry from here on could cross the NACK
        }
        final AwaitedMessages.MessageKey key = messages.named(nack.of());
        final DataPacket first = sentData().stream()
                .filter(p -> AwaitedMessages.MessageKey.of(p).equals(key))
                .min(Comparator.comparingLong(DataPacket::messageOffset))
                .orElseThrow();
        final NackCode code = NackCode.valueOf(nack.code());
        final long beforeNs = peer.link().nowNs();
        peer.send(PacketBuilder.nack(code)
                // NACK UNKNOWN_CONNECTION echoes the id the DUT sent to, the only one its answerer knew (9.1.10).
                .connection(
                        code == NackCode.UNKNOWN_CONNECTION
                                ? first.header().destinationConnectionId()
                                : VectorReplay.DUT_CONNECTION)
                .path(first.header().pathId())
                .psn(first.header().psn())
                .stream((int) nack.stream().orElse(first.streamId()))
                .msn(nack.msn().orElse(first.messageSequenceNumber()))
                .cumulativePsn(
                        nackCumulative(first.header().pathId(), first.header().psn()))
                .retryAfter(nack.retryAfterUs().orElse(0)));
        if (waits) {
            retryWait.nacked(
                    first.header().pathId(),
                    first.header().psn(),
                    beforeNs,
                    nack.retryAfterUs().orElse(0));
        }
    }

    /**
     * The cumulative psn of a NACK the tester sends for {@code psn}: no more than its ACKs have reported on the path, and
     * never past the PSN it names. A sender may take a NACK's cumulative psn as an ACK (clause 9.1.8, freedom F-21), so
     * one that told more would acknowledge what the vector holds ACKs back for.
     */
    private long nackCumulative(final int path, final long psn) {
        final long acknowledged =
                acknowledgedUpTo.getOrDefault(path, sidecar.setup().initialSendPsn());
        return Psn.atOrBefore(acknowledged, psn) ? acknowledged : psn;
    }

    /** After the DUT went quiet: every packet of every awaited message, and the PSNs of every path, field by field. */
    void checkSent() {
        new SentMessageChecks(sidecar, mtu, ipHeaderLength, this::sentPackets, failures).judge(messages.claimed());
    }

    private void post(final Sidecar.Post post) throws DutControlException {
        final PlaceholderRewriter.ActualRegion region = regions.get(post.region());
        final WorkRequest request = new WorkRequest(
                VectorReplay.DUT_CONNECTION,
                post.stream(),
                post.wrId(),
                region.key(),
                region.address() + post.offset(),
                post.length());
        switch (post.op()) {
            case "WRITE", "WRITE_WITH_IMMEDIATE" ->
                control.postWrite(request, post.remoteAddress(), post.remoteKey(), post.immediate());
            case "SEND" -> control.postSend(request);
            default -> control.postRead(request, post.remoteAddress(), post.remoteKey());
        }
    }

    private void check(final Sidecar.Check check, final String at) throws DutControlException, InterruptedException {
        if (check.rateWithinHintMs().isPresent()) {
            RateCheck.judge(
                    this::sentPackets,
                    sentPackets().size(),
                    rateHintMbps,
                    Duration.ofMillis(check.rateWithinHintMs().getAsLong()),
                    timers,
                    mtu,
                    at,
                    failures,
                    stalls);
        }
        for (final Sidecar.RegionContent content : check.regions()) {
            final PlaceholderRewriter.ActualRegion region = regions.get(content.region());
            final long deadlineNs = System.nanoTime() + VectorReplay.LIMIT.toNanos();
            byte[] bytes;
            while (true) {
                bytes = control.readRegion(region.key(), region.address() + content.offset(), content.length());
                if (OutcomeChecks.holds(content, bytes) || System.nanoTime() - deadlineNs > 0) {
                    break;
                }
                Thread.sleep(POLL_MS * 4);
            }
            if (!OutcomeChecks.holds(content, bytes)) {
                failures.add(String.format(
                        "%s: expected region %s at offset %d to hold %s within %d s, got %s",
                        at,
                        content.region(),
                        content.offset(),
                        content.hex().map(SentMessageChecks::abbreviate).orElse("bytes of SHA-256 " + content.sha256()),
                        VectorReplay.LIMIT.toSeconds(),
                        SentMessageChecks.abbreviate(HexFormat.of().formatHex(bytes))));
            }
        }
        if (check.sendWindow().isPresent()) {
            checkWindow(check.sendWindow().getAsLong(), at);
        }
        if (!check.completed().isEmpty()) {
            // Waited for at most LIMIT, and while ACKs are held or a gap kept, only until a second before the hold
            // reaches the device's connection timeout: a failure found here must not be lost to the hold's limit.
            long deadlineNs = System.nanoTime() + VectorReplay.LIMIT.toNanos();
            if (acksHeld || loseFirst) {
                deadlineNs = Math.min(deadlineNs, holdStartNs + holdLimit.toNanos() - HOLD_MARGIN.toNanos());
            }
            final long startNs = System.nanoTime();
            while (!OutcomeChecks.allCompleted(check.completed(), completions) && System.nanoTime() - deadlineNs < 0) {
                completions.addAll(control.pollCompletions(64, Duration.ofMillis(POLL_MS * 4)));
            }
            final long waitedMs = (System.nanoTime() - startNs) / 1_000_000;
            for (final Long wrId : check.completed()) {
                if (completions.stream().noneMatch(c -> c.wrId() == wrId)) {
                    failures.add(String.format(
                            "%s: expected work request %d to have completed, it had not after %d ms",
                            at, wrId, waitedMs));
                }
            }
        }
        if (!check.notCompleted().isEmpty()) {
            completions.addAll(control.pollCompletions(64, quiet));
            final Set<Long> early = new HashSet<>(check.notCompleted());
            for (final DutCompletion completion : completions) {
                if (early.contains(completion.wrId())) {
                    failures.add(at + ": expected work request " + completion.wrId()
                            + " not to have completed yet, it completed: " + completion);
                }
            }
        }
        if (check.notResentForMs().isPresent()) {
            retryWait.judgeNotResent(
                    this::sentPackets,
                    () -> peer.link().nowNs(),
                    control,
                    check.notResentForMs().getAsLong(),
                    at,
                    failures);
        }
        if (check.resentAfterRetry()) {
            retryWait.judge(this::sentPackets, () -> peer.link().nowNs(), control, at, failures);
        }
        if (check.pathWindow() || check.connectionWindow()) {
            congestionWindows.judge(check, this::outstanding, rateHintMbps, quiet, at, failures);
        }
        if (check.rtoFollowsEcho()) {
            RttEstimateCheck.judge(this::sentPackets, heldFrom, echoAgeNs, timers, at, failures, stalls);
        }
        if (check.longHaulTimers()) {
            LongHaulChecks.declaredTimers(timers, at, failures);
        }
        if (check.noSpuriousResend()) {
            if (releasedAfterNs < 0) {
                throw new TestAbortedException(at + ": the DUT sent nothing while the tester held its ACKs back, so"
                        + " no resend can be judged");
            }
            LongHaulChecks.noSpuriousResend(sentPackets(), heldFrom, releasedAfterNs, timers, at, failures, stalls);
        }
        if (check.unhealthy()) {
            pathHealth.unhealthy(this::sentPackets, control, at);
        }
        if (check.avoided()) {
            pathHealth.avoided(sentPackets(), at, failures);
        }
        if (check.healed()) {
            pathHealth.healed(this::sentPackets, check, quiet, at, failures);
        }
        if (check.resentOnlyLost()) {
            lossRepair.judge(this::sentPackets, control, holdStartNs + holdLimit.toNanos() * 3 / 4, at, failures);
        }
        heldAckChecks.run(check, at);
    }

    /**
     * Clause 6.1.3: once the DUT sent no new PSN for its quiet window (at most {@link VectorReplay#LIMIT}),
     * each path has at most {@code window} distinct PSNs at or after the cumulative PSN the tester last acknowledged;
     * fewer on every path means the edge was not reached, and nothing is judged.
     */
    private void checkWindow(final long window, final String at) throws InterruptedException {
        final Map<Integer, Long> counts = AwaitedMessages.untilUnchanged(this::outstanding, quiet);
        boolean reached = false;
        for (final Map.Entry<Integer, Long> path : counts.entrySet()) {
            reached |= path.getValue() >= window;
            if (path.getValue() > window) {
                failures.add(String.format(
                        "%s: expected at most %d PSNs outstanding on path %d from the cumulative PSN %d the tester"
                                + " acknowledged, the DUT sent %d",
                        at,
                        window,
                        path.getKey(),
                        acknowledgedUpTo.getOrDefault(
                                path.getKey(), sidecar.setup().initialSendPsn()),
                        path.getValue()));
            }
        }
        if (!reached && failures.isEmpty()) {
            // A sender may keep fewer packets in flight than its windows allow (section 10): the device's choice.
            throw VectorNotApplicable.because("the device's configuration: the DUT did not fill its "
                    + window + "-PSN window (it"
                    + " had " + counts + " outstanding by path; its congestion window may be smaller), so the"
                    + " window's edge was not reached");
        }
    }

    /**
     * The distinct PSNs the DUT sent on each path at or after the cumulative PSN the tester last acknowledged there
     * (the initial send PSN while it acknowledged nothing).
     */
    Map<Integer, Long> outstanding() {
        final Map<Integer, Set<Long>> psns = new TreeMap<>();
        for (final DataPacket p : sentData()) {
            final int path = p.header().pathId();
            final long from =
                    acknowledgedUpTo.getOrDefault(path, sidecar.setup().initialSendPsn());
            if (Psn.atOrBefore(from, p.header().psn())) {
                psns.computeIfAbsent(path, k -> new HashSet<>()).add(p.header().psn());
            }
        }
        final Map<Integer, Long> counts = new TreeMap<>();
        psns.forEach((path, set) -> counts.put(path, (long) set.size()));
        return counts;
    }

    private List<DataPacket> sentData() {
        return messages.sentData();
    }

    private List<ReceivedPacket> sentPackets() {
        return messages.sentPackets();
    }
}
