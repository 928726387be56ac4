package org.mrconf.replay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.mrconf.dut.DutControl;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.DutCounters;
import org.mrconf.peer.PathReceiveState;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;
import org.opentest4j.TestAbortedException;

/**
 * Loss as the tester shapes it and the DUT's repair of it (clauses 6.3.1 and 6.4.1): every arrival of a PSN an
 * {@code acks} step's {@code lose} names is treated as lost until the next acks step, a {@code describe} step that
 * tells the DUT, in one ACK per path, what arrived; a {@code resentOnlyLost} check then judges what the DUT resends while the tester holds every
 * later ACK back, so that each hole shows only through that one ACK (a DUT that deems only an ACK's first hole lost
 * gets no second ACK to reveal the next).
 *
 * <p>The check never races the DUT's timer. A timer expiry may resend anything outstanding, so whether a resend was
 * the ACK's doing is told by the DUT's {@code rto_expirations} counter: read before the describing ACKs, once neither
 * it nor the DUT's packets have changed for {@link DutQuiet#SETTLE} (a resend of an earlier expiry has arrived by then), and
 * again after the resends, when the DUT has again been quiet for as long. No expiry in between: every resend answered
 * the ACKs, so a hole never resent, or a PSN the ACKs reported received and resent, is a failure. An expiry in
 * between decides only on the pattern of a DUT that leaves holes to its timer: a hole first resent after some PSN had
 * already been sent twice since the ACKs, or never resent while another was; anything else is INCONCLUSIVE. A vector
 * stretches the DUT's timer first ({@code echoAge}) so that an expiry is rare.
 */
final class LossRepairCheck {
    private static final long POLL_MS = 5;

    private final long initialSendPsn;
    /**
     * PSN offsets whose arrivals are treated as lost until described, counted on each path from {@link #loseFrom}.
     */
    private final Set<Long> lose = ConcurrentHashMap.newKeySet();
    /** Per path, the first PSN the DUT had not sent when the losses were set: offset 0 of {@link #lose}. */
    private final Map<Integer, Long> loseFrom = new ConcurrentHashMap<>();

    private Described described;
    private OptionalLong settledExpirations = OptionalLong.empty();

    /**
     * What the describing ACKs told the DUT, per path: the PSNs shown missing below a PSN reported received (holes),
     * and the PSNs reported received.
     *
     * @param from the index in the sent packets from which resends count
     */
    private record Described(
            int from,
            long atNs,
            OptionalLong rtoExpirations,
            Map<Integer, Set<Long>> holes,
            Map<Integer, Set<Long>> reported) {}

    LossRepairCheck(final long initialSendPsn) {
        this.initialSendPsn = initialSendPsn;
    }

    /**
     * From now on, until the next acks step, every arrival of each of these PSN offsets is treated as lost; offset 0
     * is, on each path, the first PSN the DUT has not sent yet ({@code sent}: its data packets so far).
     */
    void lose(final List<Long> offsets, final List<ReceivedPacket> sent, final int paths) {
        if (offsets.isEmpty()) {
            return;
        }
        for (int path = 0; path < paths; path++) {
            loseFrom.put(path, initialSendPsn);
        }
        for (final ReceivedPacket packet : sent) {
            final DataPacket data = packet.data().orElseThrow();
            loseFrom.computeIfPresent(
                    data.header().pathId(),
                    (path, next) -> Psn.atOrBefore(next, data.header().psn())
                            ? Psn.add(data.header().psn(), 1)
                            : next);
        }
        lose.addAll(offsets);
    }

    /** Whether arrivals are being treated as lost (a {@code lose} not yet ended). */
    boolean losing() {
        return !lose.isEmpty();
    }

    /** Ends the losses: from now on every arrival is received. */
    void endLosses() {
        lose.clear();
    }

    /** Whether {@code packet} is an arrival to treat as lost. */
    boolean losesArrival(final DataPacket packet) {
        final Long from = loseFrom.get(packet.header().pathId());
        return from != null
                && Psn.atOrBefore(from, packet.header().psn())
                && lose.contains(Psn.distance(from, packet.header().psn()));
    }

    /**
     * Before the describing ACKs, outside the connection's lock (the tester goes on receiving): waits until the DUT is
     * quiet ({@link DutQuiet}) and keeps its {@code rto_expirations}.
     */
    void settle(final Supplier<List<ReceivedPacket>> sent, final DutControl control)
            throws DutControlException, InterruptedException {
        settledExpirations = DutQuiet.settle(sent, control);
    }

    /**
     * Right before the describing ACKs, under {@code connection}'s lock (so that no arrival slips in between): notes
     * which PSNs the ACKs will show missing and received. {@code sent} is every data packet the DUT sent since the
     * vector's mark, in arrival order. The caller ends the losses right after, so that the resends are received.
     */
    void describe(final Supplier<List<ReceivedPacket>> sent, final PeerConnection connection, final int paths) {
        final List<ReceivedPacket> now = sent.get();
        final Map<Integer, Set<Long>> sentByPath = new TreeMap<>();
        for (final ReceivedPacket packet : now) {
            final DataPacket data = packet.data().orElseThrow();
            sentByPath
                    .computeIfAbsent(data.header().pathId(), p -> new TreeSet<>())
                    .add(data.header().psn());
        }
        final Map<Integer, Set<Long>> holes = new TreeMap<>();
        final Map<Integer, Set<Long>> reported = new TreeMap<>();
        for (int path = 0; path < paths; path++) {
            final PathReceiveState state = connection.receiveState(path);
            final Set<Long> psns = sentByPath.getOrDefault(path, Set.of());
            final Set<Long> received = new HashSet<>();
            final Set<Long> missing = new HashSet<>();
            for (final long psn : psns) {
                if (Psn.precedes(psn, state.cumulativePsn()) || state.hasReceived(psn)) {
                    received.add(psn);
                } else {
                    missing.add(psn);
                }
            }
            // A hole is missing below a PSN reported received: the ACK shows it lost (clause 6.3.1).
            final Set<Long> shown = new TreeSet<>();
            for (final long psn : missing) {
                if (received.stream().anyMatch(r -> Psn.precedes(psn, r))) {
                    shown.add(psn);
                }
            }
            holes.put(path, shown);
            reported.put(path, received);
        }
        described = new Described(now.size(), System.nanoTime(), settledExpirations, holes, reported);
    }

    /**
     * Judges the resends since the describing ACKs (see the class comment); waits for every hole's resend until
     * {@code deadlineNs} at the latest.
     */
    void judge(
            final Supplier<List<ReceivedPacket>> sent,
            final DutControl control,
            final long deadlineNs,
            final String at,
            final List<String> failures)
            throws DutControlException, InterruptedException {
        final Described before = described;
        if (before.holes().values().stream().allMatch(Set::isEmpty)) {
            throw new TestAbortedException(at + ": the describing ACKs showed no PSN lost (nothing the tester lost"
                    + " was followed by a PSN it received), so no repair could be judged");
        }
        while (!unrepaired(sent.get(), before).isEmpty() && System.nanoTime() - deadlineNs < 0) {
            Thread.sleep(POLL_MS);
        }
        // What is judged is what had arrived by then; the counter is read once the DUT has been quiet for SETTLE, so
        // that an expiry behind any of it, even one a DUT counts only after its resends, shows.
        final List<ReceivedPacket> all = sent.get();
        AwaitedMessages.untilUnchanged(() -> sent.get().size(), DutQuiet.SETTLE);
        final OptionalLong expirations = DutQuiet.rtoExpirations(control);
        final List<DataPacket> since = all.subList(before.from(), all.size()).stream()
                .map(p -> p.data().orElseThrow())
                .toList();
        final Map<Integer, Set<Long>> unrepaired = unrepaired(all, before);
        final List<String> resentReported = resentReported(since, before);
        final long waitedMs = (System.nanoTime() - before.atNs()) / 1_000_000;

        if (before.rtoExpirations().isEmpty() || expirations.isEmpty()) {
            if (unrepaired.isEmpty() && resentReported.isEmpty()) {
                return;
            }
            throw new TestAbortedException(at + ": the DUT reports no " + DutCounters.RTO_EXPIRATIONS
                    + " counter, so whether its timer caused what it resent cannot be told (unrepaired holes "
                    + unrepaired + ", resent PSNs the ACKs reported received " + resentReported + ")");
        }
        final long expiries = expirations.getAsLong() - before.rtoExpirations().getAsLong();
        if (expiries == 0) {
            unrepaired.forEach((path, psns) -> {
                if (!psns.isEmpty()) {
                    failures.add(String.format(
                            "%s: 6.3.1: path %d's PSNs %s, shown missing below a PSN reported received by the"
                                    + " tester's ACK, were not resent within %d ms of it (and the DUT's timer did not"
                                    + " expire meanwhile)",
                            at, path, psns, waitedMs));
                }
            });
            resentReported.stream()
                    .limit(8)
                    .forEach(r -> failures.add(at + ": 6.4.1: " + r
                            + ", which the tester's ACK reported received, was resent with no timer expiry"
                            + " (no go-back-N)"));
            return;
        }
        final Optional<String> leftToTheTimer = leftToTheTimer(since, before, unrepaired);
        if (leftToTheTimer.isPresent()) {
            failures.add(at + ": 6.3.1: " + leftToTheTimer.get() + " although the tester's one ACK showed it lost"
                    + " below a PSN it reported received; the DUT's timer expired " + expiries
                    + " time(s) meanwhile (a hole left to the timer)");
            return;
        }
        if (!resentReported.isEmpty()) {
            throw new TestAbortedException(at + ": the DUT resent " + resentReported + ", which the tester's ACK"
                    + " reported received, but its timer expired " + expiries + " time(s) meanwhile, so the resend"
                    + " may be the timer's: 6.4.1 cannot be judged");
        }
        throw new TestAbortedException(at + ": the DUT's timer expired " + expiries + " time(s) before every hole"
                + " was resent, so the resends may be the timer's rather than the ACK's: 6.3.1 cannot be judged");
    }

    /** The holes of each path with no copy since the describing ACKs (empty paths left out). */
    private static Map<Integer, Set<Long>> unrepaired(final List<ReceivedPacket> all, final Described before) {
        final Set<List<Long>> resent = new HashSet<>();
        for (int i = before.from(); i < all.size(); i++) {
            final DataPacket data = all.get(i).data().orElseThrow();
            resent.add(List.of((long) data.header().pathId(), data.header().psn()));
        }
        final Map<Integer, Set<Long>> left = new TreeMap<>();
        before.holes().forEach((path, psns) -> {
            final Set<Long> missing = new TreeSet<>();
            for (final long psn : psns) {
                if (!resent.contains(List.of((long) path, psn))) {
                    missing.add(psn);
                }
            }
            if (!missing.isEmpty()) {
                left.put(path, missing);
            }
        });
        return left;
    }

    /** Each PSN the describing ACKs reported received that the DUT sent again since. */
    private static List<String> resentReported(final List<DataPacket> since, final Described before) {
        final Set<String> resent = new TreeSet<>();
        for (final DataPacket data : since) {
            final int path = data.header().pathId();
            if (before.reported()
                    .getOrDefault(path, Set.of())
                    .contains(data.header().psn())) {
                resent.add("PSN " + data.header().psn() + " on path " + path);
            }
        }
        return new ArrayList<>(resent);
    }

    /**
     * The first hole resent only after some PSN had been sent twice since the describing ACKs, or never resent though
     * some PSN was: the timer resends at least the oldest outstanding PSN (clause 6.6.2), so a hole that waited for a
     * PSN's second transmission waited for the timer.
     */
    private static Optional<String> leftToTheTimer(
            final List<DataPacket> since, final Described before, final Map<Integer, Set<Long>> unrepaired) {
        final Map<List<Long>, Integer> sends = new HashMap<>();
        boolean repeated = false;
        for (final DataPacket data : since) {
            final List<Long> key =
                    List.of((long) data.header().pathId(), data.header().psn());
            final int times = sends.merge(key, 1, Integer::sum);
            final boolean hole = before.holes()
                    .getOrDefault(data.header().pathId(), Set.of())
                    .contains(data.header().psn());
            if (hole && times == 1 && repeated) {
                return Optional.of("PSN " + data.header().psn() + " on path "
                        + data.header().pathId()
                        + " was first resent only after another PSN had been sent twice since the ACK,");
            }
            repeated |= times >= 2;
        }
        if (repeated && !unrepaired.isEmpty()) {
            return Optional.of(
                    "the PSNs " + unrepaired + " (by path) were never resent, while another was resent" + " twice,");
        }
        return Optional.empty();
    }
}
