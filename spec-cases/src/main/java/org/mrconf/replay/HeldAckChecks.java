package org.mrconf.replay;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.DutControl;
import org.mrconf.dut.DutControlException;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.StallAllowance;
import org.mrconf.peer.StallMonitor;
import org.mrconf.peer.TesterPeer;
import org.mrconf.wire.DataPacket;
import org.opentest4j.TestAbortedException;

/**
 * The checks of a {@link Sidecar.Check} step that judge the DUT as a sender while the tester has acknowledged nothing
 * (the reader makes sure of that): its retransmission timer (clause 6.6.2), re-pathing on expiry (6.6.4), spraying
 * (10.2.1) and connection failure (6.7.3). With nothing acknowledged every resend is the timer's, so nothing here
 * races a timer of the DUT's that the tester could have started or stopped. Intervals are judged against the declared
 * timers and tolerance, measured by the tester's clock and by the DUT's own transmit timestamps; an interval fails
 * only when both clocks agree, as in {@code TimerCase}, and never when it misses its bound by no more than the tester
 * host's longest stall in that interval ({@link StallAllowance}: INCONCLUSIVE). Without declared timers nothing is
 * judged (INCONCLUSIVE).
 */
final class HeldAckChecks {
    /** Expiries past the one that reaches the maximum RTO watched by {@code resentOldest}. */
    private static final int EXPIRIES_AT_THE_MAXIMUM = 2;

    private static final long POLL_MS = 10;

    private final Sidecar sidecar;
    private final Optional<DeviceDeclaration.Timers> timers;
    private final Duration quiet;
    private final TesterPeer peer;
    private final DutControl control;
    private final List<DutCompletion> completions;
    private final List<String> failures;
    /** The DUT's data packets on the vector's connection since the mark, in arrival order. */
    private final Supplier<List<ReceivedPacket>> sent;
    /** The distinct PSNs the DUT sent on each path: all of them, since the tester acknowledged nothing. */
    private final Supplier<Map<Integer, Long>> psnsByPath;
    /**
     * The declared first connection window, packets (0: none declared). With every ACK held it never grows, so once
     * this many new PSNs are in flight no path has an open window and idle paths are allowed (clause 10.2.1).
     */
    private final int connectionWindow;
    /** The run's stall monitor: a miss within the host's stall is INCONCLUSIVE. */
    private final StallMonitor stalls;

    HeldAckChecks(
            final Sidecar sidecar,
            final Optional<DeviceDeclaration.Timers> timers,
            final Duration quiet,
            final TesterPeer peer,
            final DutControl control,
            final List<DutCompletion> completions,
            final List<String> failures,
            final Supplier<List<ReceivedPacket>> sent,
            final Supplier<Map<Integer, Long>> psnsByPath,
            final int connectionWindow,
            final StallMonitor stalls) {
        this.sidecar = sidecar;
        this.timers = timers;
        this.quiet = quiet;
        this.peer = peer;
        this.control = control;
        this.completions = completions;
        this.failures = failures;
        this.sent = sent;
        this.psnsByPath = psnsByPath;
        this.connectionWindow = connectionWindow;
        this.stalls = stalls;
    }

    /** Runs the checks {@code check} asks for that need a silent tester, in the order the fields are documented. */
    void run(final Sidecar.Check check, final String at) throws InterruptedException, DutControlException {
        if (!check.needsNothingAcknowledged()) {
            return;
        }
        final DeviceDeclaration.Timers declared = timers.orElseThrow(() -> new TestAbortedException(
                "the vector judges the DUT's timers against its declared ones, and the device declares none"));
        final ReceivedPacket first = awaitFirstPacket(at);
        if (check.resentOldest()) {
            resentOldest(declared, first, check.newSourcePort(), check.backoff(), at);
        }
        if (check.everyPath()) {
            everyPath(check, at);
        }
        if (!check.failed().isEmpty()) {
            failed(declared, first, check.failed(), at);
        }
    }

    private ReceivedPacket awaitFirstPacket(final String at) throws InterruptedException {
        final long deadlineNs = System.nanoTime() + VectorReplay.LIMIT.toNanos();
        while (sent.get().isEmpty()) {
            if (System.nanoTime() - deadlineNs > 0) {
                throw new TestAbortedException(at + ": the DUT sent no data packet within "
                        + VectorReplay.LIMIT.toSeconds() + " s of its posts, so its timers cannot be judged");
            }
            Thread.sleep(POLL_MS);
        }
        return sent.get().get(0);
    }

    /**
     * How long {@code resentOldest} watches from the first packet: long enough for the timer to double from the
     * initial RTO up to the maximum and expire {@value #EXPIRIES_AT_THE_MAXIMUM} more times there, each late by up to
     * the tolerance, and never more than three quarters of the connection timeout, after which the DUT may rightly
     * give up (clause 6.7.3).
     */
    static Duration watchTime(final DeviceDeclaration.Timers timers) {
        final long max = timers.maxRto().toNanos();
        final long tolerance = timers.tolerance().toNanos();
        long total = 0;
        long rto = Math.max(timers.initialRto().toNanos(), 1);
        int atMax = 0;
        while (atMax < EXPIRIES_AT_THE_MAXIMUM) {
            total += Math.min(rto, max) + tolerance;
            if (rto >= max) {
                atMax++;
            }
            rto = Math.min(rto * 2, max * 2);
        }
        return Duration.ofNanos(Math.min(total, timers.connectionTimeout().toNanos() * 3 / 4));
    }

    /**
     * Clause 6.6.2 (and 6.6.4 with {@code newSourcePort}): over {@link #watchTime}, every path's oldest PSN (its
     * initial send PSN: nothing is acknowledged) is sent again, and each interval between two transmissions of it
     * lies within [minimum RTO - tolerance, maximum RTO + tolerance] by at least one of the two clocks; each later
     * transmission of any PSN leaves from another UDP source port than the one before it.
     */
    private void resentOldest(
            final DeviceDeclaration.Timers declared,
            final ReceivedPacket first,
            final boolean newSourcePort,
            final boolean backoff,
            final String at)
            throws InterruptedException {
        final Duration watch = watchTime(declared);
        final long remainingNs = watch.toNanos() - (peer.link().nowNs() - first.receivedNs());
        if (remainingNs > 0) {
            Thread.sleep(remainingNs / 1_000_000, (int) (remainingNs % 1_000_000));
        }
        final long longestNs = declared.maxRto().plus(declared.tolerance()).toNanos();
        final Map<String, List<ReceivedPacket>> byPsn = transmissionsByPathAndPsn();
        final long initial = sidecar.setup().initialSendPsn();
        for (final int path : psnsByPath.get().keySet()) {
            final List<ReceivedPacket> oldest = byPsn.getOrDefault(key(path, initial), List.of());
            final String what = at + ": path " + path + "'s oldest PSN " + initial;
            if (oldest.size() < 2) {
                if (oldest.size() == 1) {
                    // Not resent by now: late by the time since its transmission beyond the longest RTO, unless the
                    // host stalled for as long meanwhile.
                    final long judgedAtNs = peer.link().nowNs();
                    StallAllowance.excuse(
                            stalls,
                            what + " was not retransmitted within the declared maximum RTO plus tolerance",
                            StallAllowance.overNs(judgedAtNs - oldest.get(0).receivedNs(), longestNs),
                            oldest.get(0).receivedNs(),
                            judgedAtNs);
                }
                if (watch.toNanos() >= longestNs) {
                    failures.add(String.format(
                            "%s was %s in %d ms with nothing acknowledged; 6.6.2: the timer resends it within the"
                                    + " maximum RTO of %d ms plus the tolerance of %d ms",
                            what,
                            oldest.isEmpty() ? "never sent" : "never retransmitted",
                            watch.toMillis(),
                            declared.maxRto().toMillis(),
                            declared.tolerance().toMillis()));
                } else {
                    throw new TestAbortedException(what + " was not retransmitted in " + watch.toMillis()
                            + " ms, which is less than the declared maximum RTO plus tolerance: the connection"
                            + " timeout leaves too little time to judge");
                }
                continue;
            }
            final List<Interval> intervals = intervals(oldest);
            if (backoff) {
                doubles(declared, intervals, what, stalls, failures);
            }
            clamped(declared, intervals, what, stalls, failures);
        }
        if (newSourcePort) {
            sourcePortsChange(byPsn, at);
        }
    }

    /**
     * Clause 6.6.2's clamps: each interval between two transmissions of the oldest PSN lies within [minimum RTO -
     * tolerance, maximum RTO + tolerance] by at least one of the two clocks; the first that does not by either adds a
     * failure, unless it misses by no more than the host's longest stall in it (INCONCLUSIVE).
     */
    static void clamped(
            final DeviceDeclaration.Timers declared,
            final List<Interval> intervals,
            final String what,
            final StallMonitor stalls,
            final List<String> failures) {
        final long longestNs = declared.maxRto().plus(declared.tolerance()).toNanos();
        final long shortestNs = declared.minRto().minus(declared.tolerance()).toNanos();
        for (int i = 1; i <= intervals.size(); i++) {
            final Interval interval = intervals.get(i - 1);
            final long byTester = interval.byTester();
            final long byDut = interval.byDut();
            // Both clocks must miss on the same side for a failure: the smaller miss is what a stall must cover.
            StallAllowance.excuse(
                    stalls,
                    what + ": transmission " + (i + 1) + " after the one before",
                    StallAllowance.overNs(Math.min(byTester, byDut), longestNs),
                    interval.fromNs(),
                    interval.toNs());
            StallAllowance.excuse(
                    stalls,
                    what + ": transmission " + (i + 1) + " after the one before",
                    StallAllowance.underNs(Math.max(byTester, byDut), shortestNs),
                    earlyStallWindowFrom(intervals, i),
                    interval.toNs());
            if (Math.min(byTester, byDut) > longestNs) {
                failures.add(String.format(
                        "%s: transmission %d came %d us after the one before (%d us by the DUT's timestamps);"
                                + " 6.6.2: the RTO is clamped to the declared maximum of %d us, plus the"
                                + " tolerance of %d us",
                        what,
                        i + 1,
                        byTester / 1000,
                        byDut / 1000,
                        declared.maxRto().toNanos() / 1000,
                        declared.tolerance().toNanos() / 1000));
                break;
            }
            if (Math.max(byTester, byDut) < shortestNs) {
                failures.add(String.format(
                        "%s: transmission %d came %d us after the one before (%d us by the DUT's timestamps);"
                                + " 6.6.2: the RTO is clamped to the declared minimum of %d us, less the"
                                + " tolerance of %d us",
                        what,
                        i + 1,
                        byTester / 1000,
                        byDut / 1000,
                        declared.minRto().toNanos() / 1000,
                        declared.tolerance().toNanos() / 1000));
                break;
            }
        }
    }

    /**
     * Clause 6.6.3, as {@code TimerCase} judges it: with nothing acknowledged there is no RTT sample, so the timer
     * starts at the declared initial RTO and doubles on each expiry up to the maximum. Interval {@code i} must lie
     * within [expected - tolerance, 2 x expected + tolerance] (lateness is judged coarsely: the tester's own scheduling
     * cannot be told from the DUT's, and a missing doubling or clamp is off by the expected value); it fails when both
     * clocks say it does not, and the vector is INCONCLUSIVE when they disagree.
     */
    static void doubles(
            final DeviceDeclaration.Timers declared,
            final List<Interval> intervals,
            final String what,
            final StallMonitor stalls,
            final List<String> failures) {
        final long toleranceNs = declared.tolerance().toNanos();
        final long maxNs = declared.maxRto().toNanos();
        long expectedNs = Math.max(
                declared.minRto().toNanos(),
                Math.min(maxNs, declared.initialRto().toNanos()));
        for (int i = 1; i <= intervals.size(); i++) {
            final long byTester = intervals.get(i - 1).byTester();
            final long byDut = intervals.get(i - 1).byDut();
            final long lowest = expectedNs - toleranceNs;
            final long highest = 2 * expectedNs + toleranceNs;
            final boolean testerOk = byTester >= lowest && byTester <= highest;
            final boolean dutOk = byDut >= lowest && byDut <= highest;
            if (testerOk != dutOk) {
                throw new TestAbortedException(String.format(
                        "%s: interval %d is %d us by the DUT's timestamps and %d us by the tester's clock; only one is"
                                + " within %d to %d us, so the link's timing cannot decide",
                        what, i, byDut / 1000, byTester / 1000, lowest / 1000, highest / 1000));
            }
            if (!testerOk) {
                final boolean early = byTester < lowest;
                StallAllowance.excuse(
                        stalls,
                        what + ": interval " + i + " before resend " + i,
                        Math.min(
                                StallAllowance.missNs(byTester, lowest, highest),
                                StallAllowance.missNs(byDut, lowest, highest)),
                        early
                                ? earlyStallWindowFrom(intervals, i)
                                : intervals.get(i - 1).fromNs(),
                        intervals.get(i - 1).toNs());
                failures.add(String.format(
                        "%s: interval %d before resend %d is %d us (%d us by the DUT's timestamps); 6.6.3: the RTO"
                                + " starts at the declared initial RTO and doubles on each expiry up to the maximum,"
                                + " so it lies within %d to %d us",
                        what, i, i, byTester / 1000, byDut / 1000, lowest / 1000, highest / 1000));
                return;
            }
            expectedNs = Math.min(maxNs, 2 * expectedNs);
        }
    }

    /**
     * Where a stall that may explain interval {@code i} (1-based) being too short can lie: in it, or in the interval
     * before. A DUT whose timer the host held back resends late, which lengthens that interval and, where the DUT
     * keeps its expiries on their schedule, shortens the next; a stall before an interval never lengthens it.
     */
    private static long earlyStallWindowFrom(final List<Interval> intervals, final int i) {
        return intervals.get(Math.max(0, i - 2)).fromNs();
    }

    /** Clause 6.6.4: with nothing acknowledged every resend follows an expiry, and takes another source port. */
    private void sourcePortsChange(final Map<String, List<ReceivedPacket>> byPsn, final String at) {
        int resends = 0;
        for (final Map.Entry<String, List<ReceivedPacket>> entry : byPsn.entrySet()) {
            final List<ReceivedPacket> copies = entry.getValue();
            resends += copies.size() - 1;
            for (int i = 1; i < copies.size(); i++) {
                if (copies.get(i).captured().sourcePort()
                        == copies.get(i - 1).captured().sourcePort()) {
                    failures.add(String.format(
                            "%s: %s: transmission %d left from UDP source port %d, as the one before it (every"
                                    + " transmission's ports: %s); 6.6.4: a timeout gives the path a new source port"
                                    + " before it retransmits",
                            at,
                            entry.getKey(),
                            i + 1,
                            copies.get(i).captured().sourcePort(),
                            copies.stream().map(p -> p.captured().sourcePort()).toList()));
                    return;
                }
            }
        }
        if (resends == 0) {
            throw new TestAbortedException(at + ": no retransmission came, so no change of source port can be judged");
        }
    }

    /**
     * Clause 10.2.1: once the DUT has sent no new PSN for its quiet window, with the posted data not all sent (held
     * back for lack of window, since nothing is acknowledged), every path of the connection carried new PSNs. A DUT
     * that sent every byte left nothing held back, and nothing to judge.
     */
    private void everyPath(final Sidecar.Check check, final String at) throws InterruptedException {
        final Map<Integer, Long> psns = AwaitedMessages.untilUnchanged(psnsByPath, quiet);
        final HeldBack heldBack = HeldBack.before(sidecar, check, sent.get());
        final List<Integer> idle = new ArrayList<>();
        for (int path = 0; path < sidecar.setup().paths(); path++) {
            if (!psns.containsKey(path)) {
                idle.add(path);
            }
        }
        if (idle.isEmpty()) {
            return;
        }
        if (heldBack.nothing()) {
            throw new TestAbortedException(at + ": the DUT sent all " + heldBack.posted() + " posted bytes with"
                    + " nothing acknowledged, so no data was held back and spraying cannot be judged");
        }
        final long inFlight = psns.values().stream().mapToLong(Long::longValue).sum();
        if (connectionWindow > 0 && inFlight >= connectionWindow) {
            // Nothing acknowledged, so the connection window is still the declared first one, and it is full: no path
            // has an open window, which is when 10.2.1 allows a path to stay idle.
            // The device's legal configuration (a small declared first connection window), not the tester, kept the
            // vector's condition from arising: not applicable, so the clause reads partial (its case drives the
            // device there), never inconclusive.
            throw VectorNotApplicable.because(String.format(
                    "%s: the device's configuration: paths %s stayed idle, but the DUT had %d new PSNs in flight, its"
                            + " whole declared first connection window (%d), so no path had an open window (10.2.1"
                            + " allows that); a declared initialConnectionWindow above what the paths' windows hold"
                            + " would exercise it",
                    at, idle, inFlight, connectionWindow));
        }
        failures.add(String.format(
                "%s: the DUT held back %d of %d posted bytes with nothing acknowledged, and put no new PSN on"
                        + " paths %s (new PSNs by path: %s); 10.2.1: no healthy path with an open window stays idle"
                        + " while new data is held back",
                at, heldBack.bytes(), heldBack.posted(), idle, psns));
    }

    /**
     * Clause 6.7.3: with nothing acknowledged, each work request completes with an error, within twice the declared
     * connection timeout of the DUT's first packet (plus {@link VectorReplay#PATIENCE}), and not before the timeout
     * less the tolerance.
     */
    private void failed(
            final DeviceDeclaration.Timers declared,
            final ReceivedPacket first,
            final List<Long> wrIds,
            final String at)
            throws DutControlException {
        final long timeoutNs = declared.connectionTimeout().toNanos();
        final long deadlineNs = System.nanoTime()
                + 2 * timeoutNs
                - (peer.link().nowNs() - first.receivedNs())
                + VectorReplay.PATIENCE.toNanos();
        final Map<Long, Long> seenAtNs = new LinkedHashMap<>();
        while (seenAtNs.size() < wrIds.size() && System.nanoTime() - deadlineNs < 0) {
            final List<DutCompletion> polled = control.pollCompletions(64, Duration.ofMillis(POLL_MS * 5));
            final long nowNs = peer.link().nowNs();
            for (final DutCompletion completion : polled) {
                completions.add(completion);
                if (wrIds.contains(completion.wrId())) {
                    seenAtNs.putIfAbsent(completion.wrId(), nowNs);
                }
            }
        }
        for (final long wrId : wrIds) {
            final DutCompletion completion = completions.stream()
                    .filter(c -> c.wrId() == wrId)
                    .findFirst()
                    .orElse(null);
            if (completion == null) {
                failures.add(String.format(
                        "%s: work request %d had not completed %d ms after the DUT's first packet with nothing"
                                + " acknowledged; 6.7.3: the connection fails after the declared timeout of %d ms",
                        at,
                        wrId,
                        (2 * timeoutNs + VectorReplay.PATIENCE.toNanos()) / 1_000_000,
                        timeoutNs / 1_000_000));
                continue;
            }
            if (completion.isSuccess()) {
                failures.add(at + ": work request " + wrId + " completed with " + completion.status()
                        + " with nothing acknowledged; 6.7.3: it completes with a transport error");
            }
            final Long atNs = seenAtNs.get(wrId);
            final long earliestNs = timeoutNs - declared.tolerance().toNanos();
            if (atNs != null) {
                StallAllowance.excuse(
                        stalls,
                        at + ": 6.7.3: work request " + wrId + "'s failure",
                        StallAllowance.underNs(atNs - first.receivedNs(), earliestNs),
                        first.receivedNs(),
                        atNs);
            }
            if (atNs != null && atNs - first.receivedNs() < earliestNs) {
                failures.add(String.format(
                        "%s: work request %d completed %d ms after the DUT's first packet; 6.7.3: not before the"
                                + " declared connection timeout of %d ms less the tolerance",
                        at, wrId, (atNs - first.receivedNs()) / 1_000_000, timeoutNs / 1_000_000));
            }
        }
    }

    /** Every transmission of each PSN, by path and PSN, in arrival order. */
    private Map<String, List<ReceivedPacket>> transmissionsByPathAndPsn() {
        final Map<String, List<ReceivedPacket>> byPsn = new LinkedHashMap<>();
        for (final ReceivedPacket packet : sent.get()) {
            final DataPacket data = packet.data().orElseThrow();
            byPsn.computeIfAbsent(key(data.header().pathId(), data.header().psn()), k -> new ArrayList<>())
                    .add(packet);
        }
        return byPsn;
    }

    /**
     * The time between two transmissions of one PSN, by the tester's clock and by the DUT's transmit timestamps, and
     * when the tester received the two (the measuring window).
     */
    record Interval(long byTester, long byDut, long fromNs, long toNs) {}

    /** The intervals between consecutive transmissions, in order. */
    private static List<Interval> intervals(final List<ReceivedPacket> transmissions) {
        final List<Interval> intervals = new ArrayList<>();
        for (int i = 1; i < transmissions.size(); i++) {
            intervals.add(new Interval(
                    transmissions.get(i).receivedNs() - transmissions.get(i - 1).receivedNs(),
                    Psn.distance(timestamp(transmissions.get(i - 1)), timestamp(transmissions.get(i))),
                    transmissions.get(i - 1).receivedNs(),
                    transmissions.get(i).receivedNs()));
        }
        return intervals;
    }

    private static String key(final int path, final long psn) {
        return "PSN " + psn + " of path " + path;
    }

    private static long timestamp(final ReceivedPacket packet) {
        return packet.data().orElseThrow().transmitTimestamp();
    }
}
