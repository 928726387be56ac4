package org.mrconf.replay;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.StallMonitor;
import org.mrconf.peer.TesterPeer;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;
import org.opentest4j.TestAbortedException;

/**
 * The DUT's side of a sender vector as the tester sees it: every data packet and READ_REQUEST it sent on the vector's
 * connection, and the messages the {@code await} steps waited for, claimed (each once, by opcode, stream and MSN) and
 * named ({@code as}) for later steps. {@link SenderSteps} runs the steps; {@link SentMessageChecks} judges the claimed
 * messages field by field.
 */
final class AwaitedMessages {
    private static final long POLL_MS = 5;

    /**
     * A host stall this long, before the DUT's first resend while ACKs are withheld, may have let the DUT's timer fire
     * before its sending caught up: the expiry then collapsed a window (clause 10.1.3) that would have let the whole
     * message out. Shorter stalls are the scheduling noise of any host.
     */
    static final long TIMER_STALL_NS = 10_000_000L;

    private final TesterPeer peer;
    private final int mark;
    private final PlaceholderRewriter rewriter;
    private final List<String> failures;
    private final StallMonitor stalls;
    /**
     * The device's declared first windows, when nothing in the vector can shrink them (no CE count, no rate hint):
     * then only a timeout's collapse of a window (clause 10.1.3) can hold the DUT below them.
     */
    private final Optional<DeviceDeclaration.Congestion> unshrunkWindows;
    /** Messages an await step named ({@code as}). */
    private final Map<String, MessageKey> named = new HashMap<>();

    /** Messages claimed by an await step, by stream and MSN, with the step that claimed them. */
    private final Map<MessageKey, Sidecar.Await> claimed = new LinkedHashMap<>();

    /** One message of the DUT: READ_RESPONSEs are named by the stream and MSN of the request they answer. */
    record MessageKey(Opcode opcode, int stream, long msn) {
        static MessageKey of(final DataPacket packet) {
            return new MessageKey(packet.opcode(), packet.streamId(), packet.messageSequenceNumber());
        }
    }

    AwaitedMessages(
            final TesterPeer peer,
            final int mark,
            final PlaceholderRewriter rewriter,
            final List<String> failures,
            final StallMonitor stalls,
            final Optional<DeviceDeclaration.Congestion> unshrunkWindows) {
        this.peer = peer;
        this.stalls = stalls;
        this.unshrunkWindows = unshrunkWindows;
        this.mark = mark;
        this.rewriter = rewriter;
        this.failures = failures;
    }

    /** The messages await steps claimed, in the order they were claimed. */
    Map<MessageKey, Sidecar.Await> claimed() {
        return claimed;
    }

    /** The message an await step named {@code name}, or null. */
    MessageKey named(final String name) {
        return named.get(name);
    }

    /** Waits for the next unclaimed message of the step's opcode and stream to be whole; false if it never is. */
    boolean await(final Sidecar.Await await, final String at, final boolean acksWithheld) throws InterruptedException {
        final long deadlineNs = System.nanoTime() + VectorReplay.LIMIT.toNanos();
        while (true) {
            final List<DataPacket> sent = sentData();
            // The message with the awaited MSN, waited for until the deadline: packets of several messages may
            // arrive out of order (any path, any source port). Only at the deadline does the first unclaimed whole
            // message stand in for it, so that a wrong MSN is still compared.
            final List<DataPacket> unclaimed = sent.stream()
                    .filter(p -> p.opcode().name().equals(await.opcode())
                            && p.streamId() == await.stream()
                            && !claimed.containsKey(MessageKey.of(p)))
                    .toList();
            final boolean late = System.nanoTime() - deadlineNs > 0;
            final DataPacket first = unclaimed.stream()
                    .filter(p -> await.msn().isEmpty()
                            || p.messageSequenceNumber() == await.msn().getAsLong())
                    .findFirst()
                    .orElse(
                            late
                                    ? unclaimed.stream()
                                            .filter(p -> isWhole(p, sent))
                                            .findFirst()
                                            .orElse(unclaimed.isEmpty() ? null : unclaimed.get(0))
                                    : null);
            if (first != null && isWhole(first, sent)) {
                claimed.put(MessageKey.of(first), await);
                await.as().ifPresent(name -> {
                    named.put(name, MessageKey.of(first));
                    rewriter.bind(
                            name,
                            new PlaceholderRewriter.BoundRequest(
                                    first.streamId(), first.messageSequenceNumber(), first.sinkHandle()));
                });
                return true;
            }
            if (late) {
                if (acksWithheld) {
                    undecidedIfATimerFiredInAStall(at, await);
                    replayIfTheWindowsLeftRoom(at, await);
                    // Without ACKs a DUT may rightly hold the message back for its congestion or send window: a
                    // sender may keep fewer packets in flight than its windows allow, and a tester assumes no more
                    // than one (section 10). The device's windows, not the tester, kept the vector's condition from
                    // arising: not applicable, so the clause reads partial where its cases, which drive the device,
                    // decide it.
                    throw VectorNotApplicable.because(String.format(
                            "%s: the device's configuration: the DUT sent no whole %s message on stream %d within %d s"
                                    + " while the tester left packets unacknowledged, which its windows may explain"
                                    + " (section 10: a tester assumes no more than one packet in flight): nothing is"
                                    + " judged; larger declared first windows would exercise it",
                            at, await.opcode(), await.stream(), VectorReplay.LIMIT.toSeconds()));
                }
                failures.add(String.format(
                        "%s: expected the DUT to send a whole %s message on stream %d within %d s, %s",
                        at,
                        await.opcode(),
                        await.stream(),
                        VectorReplay.LIMIT.toSeconds(),
                        first == null
                                ? "it sent none (the DUT sent: "
                                        + ResponseChecks.summary(peer.recorder().since(mark)) + ")"
                                : "its bytes never all arrived: " + first));
                return false;
            }
            Thread.sleep(POLL_MS);
        }
    }

    /**
     * Throws INCONCLUSIVE (the attempt is undecided, so {@link VectorReplay} replays it) when the DUT's timer may have
     * kept the message back ({@link #timerFiredInAStall}); returns otherwise.
     */
    private void undecidedIfATimerFiredInAStall(final String at, final Sidecar.Await await) {
        timerFiredInAStall(transmissions(), stalls).ifPresent(why -> {
            throw new TestAbortedException(String.format(
                    java.util.Locale.ROOT,
                    "%s: the DUT sent no whole %s message on stream %d while the tester left packets unacknowledged,"
                            + " and %s: the expiry, not the device's windows, may have kept the message back (clause"
                            + " 10.1.3); an attempt on a host that does not stall decides",
                    at,
                    await.opcode(),
                    await.stream(),
                    why));
        });
    }

    /**
     * Throws NOT_APPLICABLE worth another attempt ({@link VectorNotApplicable#unlessAnotherAttemptDecides}) when the
     * device's declared first windows had room for more than the DUT sent ({@link #windowsLeftRoom}): the windows do
     * not explain the missing message; the sender's own choice (section 10) or a timer that collapsed a window (an
     * early expiry on a loaded host, before the tester's work requests all reached the DUT) does. Returns otherwise.
     */
    private void replayIfTheWindowsLeftRoom(final String at, final Sidecar.Await await) {
        if (unshrunkWindows.isEmpty()) {
            return;
        }
        final List<Transmission> sent = transmissions();
        if (windowsLeftRoom(sent, unshrunkWindows.get())) {
            // A sender may keep fewer packets in flight than its windows allow (section 10): not applicable, unless a
            // replay sees the message come, since a timeout's collapse of a window (clause 10.1.3) on a loaded host
            // explains it as well.
            throw VectorNotApplicable.unlessAnotherAttemptDecides(String.format(
                    java.util.Locale.ROOT,
                    "%s: the device's configuration: the DUT sent no whole %s message on stream %d while the tester"
                            + " left packets unacknowledged, and put only %d PSNs on the wire where its declared first"
                            + " windows allow %d per path and %d per connection (a sender may keep fewer in flight,"
                            + " section 10; or a timeout collapsed its window, clause 10.1.3): nothing is judged",
                    at,
                    await.opcode(),
                    await.stream(),
                    distinctPsns(sent),
                    unshrunkWindows.get().initialPathWindow(),
                    unshrunkWindows.get().initialConnectionWindow()));
        }
    }

    /**
     * Whether windows that nothing shrank had room for another packet: fewer distinct PSNs were sent than the smaller
     * of the declared first path and connection windows (windows grow from there without CE, clauses 10.1.1 and
     * 10.1.2). False when the device declares no first windows.
     */
    static boolean windowsLeftRoom(final List<Transmission> sent, final DeviceDeclaration.Congestion declared) {
        final int room = Math.min(declared.initialPathWindow(), declared.initialConnectionWindow());
        return room > 0 && distinctPsns(sent) < room;
    }

    private static int distinctPsns(final List<Transmission> sent) {
        final java.util.Set<String> psns = new java.util.HashSet<>();
        sent.forEach(t -> psns.add(t.path() + "/" + t.psn()));
        return psns.size();
    }

    /** Whether a step of the vector can shrink the DUT's windows or rate: an ACK with a CE count or a rate hint. */
    static boolean windowsMayShrink(final Sidecar sidecar) {
        return sidecar.steps().stream()
                .anyMatch(s -> s instanceof Sidecar.Acks acks
                        && (acks.ceCount().orElse(0) > 0 || acks.rateHintMbps().isPresent()));
    }

    private List<Transmission> transmissions() {
        return sentPackets().stream()
                .map(p -> new Transmission(
                        p.data().orElseThrow().header().pathId(),
                        p.data().orElseThrow().header().psn(),
                        p.receivedNs()))
                .toList();
    }

    /** One packet the DUT sent: its path, PSN and arrival on the tester's clock. */
    record Transmission(int path, long psn, long receivedNs) {}

    /**
     * Why the DUT's timer, not its windows, may have kept a message back while ACKs were withheld: it resent a packet
     * (its timer fired; the first resend is the expiry that could have collapsed a window) after the host stalled at
     * least {@link #TIMER_STALL_NS} since its first packet. Empty when it resent nothing (nothing collapsed its
     * windows) or no such stall came before the first resend.
     */
    static Optional<String> timerFiredInAStall(final List<Transmission> sent, final StallMonitor stalls) {
        final java.util.Set<String> seen = new java.util.HashSet<>();
        for (final Transmission packet : sent) {
            if (seen.add(packet.path() + "/" + packet.psn())) {
                continue;
            }
            final long stallNs = stalls.longestStallNs(sent.get(0).receivedNs(), packet.receivedNs());
            return stallNs < TIMER_STALL_NS
                    ? Optional.empty()
                    : Optional.of(String.format(
                            java.util.Locale.ROOT,
                            "its timer fired (PSN %d on path %d resent) after the host stalled %d ms",
                            packet.psn(),
                            packet.path(),
                            stallNs / 1_000_000));
        }
        return Optional.empty();
    }

    private static boolean isWhole(final DataPacket first, final List<DataPacket> sent) {
        if (first.opcode() == Opcode.READ_REQUEST) {
            return true;
        }
        final long length = first.messageLength();
        final TreeMap<Long, Long> ends = new TreeMap<>();
        sent.stream()
                .filter(p -> MessageKey.of(p).equals(MessageKey.of(first)))
                .forEach(p -> ends.merge(p.messageOffset(), p.messageOffset() + p.payloadLength(), Math::max));
        long covered = 0;
        for (final Map.Entry<Long, Long> range : ends.entrySet()) {
            if (range.getKey() > covered) {
                return false;
            }
            covered = Math.max(covered, range.getValue());
        }
        return covered >= length;
    }

    /**
     * Polls {@code now} until its value has not changed for {@code quiet} (the DUT sends nothing new), at most
     * {@link VectorReplay#LIMIT}, and returns the last value.
     */
    static <T> T untilUnchanged(final java.util.function.Supplier<T> now, final Duration quiet)
            throws InterruptedException {
        final long deadlineNs = System.nanoTime() + VectorReplay.LIMIT.toNanos();
        T value = now.get();
        long stableSinceNs = System.nanoTime();
        while (System.nanoTime() - stableSinceNs < quiet.toNanos() && System.nanoTime() - deadlineNs < 0) {
            Thread.sleep(POLL_MS * 4);
            final T next = now.get();
            if (!next.equals(value)) {
                value = next;
                stableSinceNs = System.nanoTime();
            }
        }
        return value;
    }

    /** Every data packet and READ_REQUEST the DUT sent on the vector's connection since the mark, in arrival order. */
    List<DataPacket> sentData() {
        return sentPackets().stream().map(p -> p.data().orElseThrow()).toList();
    }

    /** As {@link #sentData()}, as received. */
    List<ReceivedPacket> sentPackets() {
        return peer.recorder().since(mark).stream()
                .filter(p -> p.data()
                        .map(d -> d.header().destinationConnectionId() == VectorReplay.TESTER_CONNECTION)
                        .orElse(false))
                .toList();
    }
}
