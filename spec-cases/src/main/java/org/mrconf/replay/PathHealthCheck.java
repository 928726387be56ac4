package org.mrconf.replay;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.DutControl;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.DutCounters;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;
import org.opentest4j.TestAbortedException;

/**
 * Path health at the DUT as sender (clauses 6.7.1, 6.7.2), judged while an {@code acks} step keeps some paths silent
 * ({@link Sidecar.Acks#silentPaths()}: the tester records what arrives on them and acknowledges none of it) and the
 * others answered at once.
 *
 * <p>{@code unhealthy} waits until each silent path is unhealthy beyond doubt: its oldest PSN sent at least the
 * declared threshold of times again, the DUT's {@code rto_expirations} grown by the threshold for each silent path
 * since the silence began, and no PSN of another path sent twice. An expiry must resend at least its path's oldest
 * PSN (clause 6.6.2), so with no resend elsewhere every counted expiry was a silent path's, and consecutive (nothing
 * acknowledged it). Resends alone would not do: a DUT may resend a PSN for other reasons. Then the DUT is let go
 * quiet ({@link DutQuiet}), so that everything it sent before has arrived. {@code avoided} then fails any data
 * packet on a silent path whose PSN that path had not carried by then: a new PSN on an unhealthy path (clause 6.7.1).
 * {@code healed} comes after the acks step that ended the silence, which acknowledged the silent paths (their first
 * ACK: healthy again, clause 6.7.2), with ACKs held since: once the DUT sends no new PSN for its quiet window while it
 * still holds posted data back, each of those paths must have carried a new PSN (clause 10.2.1 leaves no healthy path
 * with an open window idle then).
 */
final class PathHealthCheck {
    private static final long POLL_MS = 5;
    /** The declared unhealthy threshold when the device declares no timers (clause 6.7.1's default). */
    private static final int DEFAULT_THRESHOLD = 3;

    private final Optional<DeviceDeclaration.Timers> timers;
    private final Sidecar sidecar;
    private volatile Set<Integer> silent = Set.of();
    private OptionalLong expirationsAtSilence = OptionalLong.empty();
    private int silenceFrom;
    private int unhealthyFrom = -1;
    private Map<Integer, Set<Long>> psnsWhenUnhealthy = Map.of();
    private Set<Integer> healing = Set.of();
    private int healingFrom = -1;
    private Map<Integer, Set<Long>> psnsBeforeHealing = Map.of();

    PathHealthCheck(final Sidecar sidecar, final Optional<DeviceDeclaration.Timers> timers) {
        this.sidecar = sidecar;
        this.timers = timers;
    }

    /** Whether the tester keeps {@code path} silent now. */
    boolean silences(final int path) {
        return silent.contains(path);
    }

    /** Whether any path is silent now: its packets stay unacknowledged, and may fill the DUT's windows. */
    boolean silencesAny() {
        return !silent.isEmpty();
    }

    /**
     * An acks step: the silence before it ends (the step's ACKs acknowledge those paths) and the step's own begins.
     * {@code sent}: the DUT's data packets so far.
     */
    void acks(final List<Integer> silentPaths, final List<ReceivedPacket> sent, final DutControl control)
            throws DutControlException {
        if (!silent.isEmpty()) {
            healing = silent;
            healingFrom = sent.size();
            psnsBeforeHealing = psnsByPath(sent, 0);
        }
        silent = Set.copyOf(silentPaths);
        if (!silent.isEmpty()) {
            expirationsAtSilence = DutQuiet.rtoExpirations(control);
            silenceFrom = sent.size();
            unhealthyFrom = -1;
        }
    }

    /** Clause 6.7.1's precondition: every silent path unhealthy beyond doubt (see the class comment). */
    void unhealthy(final Supplier<List<ReceivedPacket>> sent, final DutControl control, final String at)
            throws DutControlException, InterruptedException {
        if (expirationsAtSilence.isEmpty()) {
            throw new TestAbortedException(at + ": the DUT reports no " + DutCounters.RTO_EXPIRATIONS
                    + " counter, so its silent paths' timer expiries cannot be told from other resends");
        }
        final int threshold =
                timers.map(DeviceDeclaration.Timers::unhealthyThreshold).orElse(DEFAULT_THRESHOLD);
        final long needed = (long) threshold * silent.size();
        final long deadlineNs = System.nanoTime() + VectorReplay.LIMIT.toNanos();
        while (true) {
            final Map<Integer, Integer> copies = oldestCopies(sent.get());
            final long expiries = DutQuiet.rtoExpirations(control).orElse(0) - expirationsAtSilence.getAsLong();
            if (copies.size() == silent.size()
                    && copies.values().stream().allMatch(c -> c > threshold)
                    && expiries >= needed) {
                break;
            }
            if (System.nanoTime() - deadlineNs > 0) {
                throw new TestAbortedException(String.format(
                        "%s: within %d s the silent paths %s did not show %d timer expiries each (oldest PSN sent %s"
                                + " times by path; %d expiries counted since the silence began), so no path was"
                                + " shown unhealthy",
                        at, VectorReplay.LIMIT.toSeconds(), silent, threshold, copies, expiries));
            }
            Thread.sleep(POLL_MS);
        }
        DutQuiet.settle(sent, control);
        final List<ReceivedPacket> now = sent.get();
        final List<Integer> resentElsewhere = new ArrayList<>();
        for (int path = 0; path < sidecar.setup().paths(); path++) {
            if (!silent.contains(path) && resentSince(now, path, silenceFrom)) {
                resentElsewhere.add(path);
            }
        }
        if (!resentElsewhere.isEmpty()) {
            throw new TestAbortedException(
                    at + ": the DUT resent segments first sent on the answered paths " + resentElsewhere
                            + " too, so some of the expiries it counted may have been theirs: the silent paths were not"
                            + " shown unhealthy");
        }
        unhealthyFrom = now.size();
        psnsWhenUnhealthy = psnsByPath(now, 0);
    }

    /** Clause 6.7.1: no new PSN on a silent path since it was shown unhealthy. */
    void avoided(final List<ReceivedPacket> sent, final String at, final List<String> failures) {
        final Set<String> wrong = new TreeSet<>();
        for (final ReceivedPacket packet : sent.subList(unhealthyFrom, sent.size())) {
            final DataPacket data = packet.data().orElseThrow();
            final int path = data.header().pathId();
            if (silent.contains(path)
                    && !psnsWhenUnhealthy
                            .getOrDefault(path, Set.of())
                            .contains(data.header().psn())) {
                wrong.add(String.format(
                        "%s: the DUT put the new PSN %d (%s, MSN %d) on path %d after that path's timer had expired"
                                + " the declared %d times with nothing acknowledging it; 6.7.1: an unhealthy path"
                                + " gets no new PSNs until it is healthy again",
                        at,
                        data.header().psn(),
                        data.opcode(),
                        data.messageSequenceNumber(),
                        path,
                        timers.map(DeviceDeclaration.Timers::unhealthyThreshold).orElse(DEFAULT_THRESHOLD)));
            }
        }
        wrong.stream().limit(4).forEach(failures::add);
    }

    /** Clause 6.7.2: each path acknowledged when the silence ended carries new PSNs while data is held back. */
    void healed(
            final Supplier<List<ReceivedPacket>> sent,
            final Sidecar.Check check,
            final Duration quiet,
            final String at,
            final List<String> failures)
            throws InterruptedException {
        final Map<Integer, Set<Long>> since =
                AwaitedMessages.untilUnchanged(() -> newPsnsSinceHealing(sent.get()), quiet);
        final List<Integer> idle = healing.stream()
                .filter(path -> since.getOrDefault(path, Set.of()).isEmpty())
                .sorted()
                .toList();
        if (idle.isEmpty()) {
            return;
        }
        final HeldBack heldBack = HeldBack.before(sidecar, check, sent.get());
        if (heldBack.nothing()) {
            throw new TestAbortedException(at + ": the DUT sent all " + heldBack.posted() + " posted bytes, so none"
                    + " was held back and whether the acknowledged paths " + idle + " are usable again cannot be"
                    + " judged");
        }
        failures.add(String.format(
                "%s: paths %s were acknowledged after their timers had made them unhealthy, yet carried no new PSN"
                        + " while the DUT held back %d of %d posted bytes (new PSNs by path since: %s); 6.7.2: the"
                        + " first ACK of a path marks it healthy again",
                at, idle, heldBack.bytes(), heldBack.posted(), since));
    }

    private Map<Integer, Set<Long>> newPsnsSinceHealing(final List<ReceivedPacket> sent) {
        final Map<Integer, Set<Long>> fresh = new TreeMap<>();
        psnsByPath(sent, healingFrom).forEach((path, psns) -> {
            final Set<Long> novel = new TreeSet<>(psns);
            novel.removeAll(psnsBeforeHealing.getOrDefault(path, Set.of()));
            fresh.put(path, novel);
        });
        return fresh;
    }

    /** For each silent path that carried a PSN since the silence began, how often its oldest was sent. */
    private Map<Integer, Integer> oldestCopies(final List<ReceivedPacket> sent) {
        final Map<Integer, DataPacket> oldest = new TreeMap<>();
        final Map<Integer, Integer> copies = new TreeMap<>();
        for (final ReceivedPacket packet : sent.subList(silenceFrom, sent.size())) {
            final DataPacket data = packet.data().orElseThrow();
            final int path = data.header().pathId();
            if (silent.contains(path)) {
                oldest.putIfAbsent(path, data);
            }
        }
        for (final ReceivedPacket packet : sent.subList(silenceFrom, sent.size())) {
            final String segment = HeldBack.segment(packet.data().orElseThrow());
            // The same segment, on whatever path: retransmissionsFaithful judges where it went (clause 6.4.2).
            oldest.forEach((path, first) -> {
                if (segment.equals(HeldBack.segment(first))) {
                    copies.merge(path, 1, Integer::sum);
                }
            });
        }
        return copies;
    }

    /**
     * Whether a segment first sent on {@code path} was sent again at or after index {@code from}, on whatever path: an
     * expiry of that path's timer may have caused it. A copy of a silent path's segment under another path's id is
     * the silent path's resend, and {@code retransmissionsFaithful} judges where it went (clause 6.4.2).
     */
    private static boolean resentSince(final List<ReceivedPacket> sent, final int path, final int from) {
        final Map<String, Integer> firstPath = new java.util.HashMap<>();
        for (int i = 0; i < sent.size(); i++) {
            final DataPacket data = sent.get(i).data().orElseThrow();
            final Integer first =
                    firstPath.putIfAbsent(HeldBack.segment(data), data.header().pathId());
            if (first != null && first == path && i >= from) {
                return true;
            }
        }
        return false;
    }

    private static Map<Integer, Set<Long>> psnsByPath(final List<ReceivedPacket> sent, final int from) {
        final Map<Integer, Set<Long>> psns = new TreeMap<>();
        for (final ReceivedPacket packet : sent.subList(Math.min(from, sent.size()), sent.size())) {
            final DataPacket data = packet.data().orElseThrow();
            psns.computeIfAbsent(data.header().pathId(), p -> new HashSet<>())
                    .add(data.header().psn());
        }
        return psns;
    }
}
