package org.mrconf.cases;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.apiguardian.api.API;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DutControlException;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.NackPacket;
import org.mrconf.wire.Opcode;

/**
 * Steps the acknowledgement, NACK, congestion and protection cases share: a message built packet by packet so that a
 * case can send its packets in any order, the NACK the DUT owes for one of them, and the memory a rejected message
 * must have left alone.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class TesterMessages {
    private TesterMessages() {}

    /**
     * The packets of one new message from the tester on {@code path}, cut at {@code segment} bytes, built and not
     * sent: the stream's next MSN and the path's next PSNs are consumed, so the case sends them in the order it
     * likes with {@link #send}. The last packet asks for an ACK (clause 8.1.3).
     */
    public static List<PacketBuilder> message(
            final PeerConnection connection,
            final Opcode opcode,
            final int stream,
            final int path,
            final byte[] data,
            final int segment,
            final Consumer<PacketBuilder> extension) {
        final long msn = connection.takeMsn(stream);
        final long first = connection.nextPsn(path);
        final int count = Math.max(1, (data.length + segment - 1) / segment);
        final List<PacketBuilder> packets = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            final int offset = i * segment;
            final int length = Math.min(segment, data.length - offset);
            final PacketBuilder packet = connection.packet(opcode, path).psn(Psn.add(first, i)).stream(stream)
                    .msn(msn)
                    .messageLength(data.length)
                    .messageOffset(offset)
                    .payload(Arrays.copyOfRange(data, offset, offset + length))
                    .transmitTimestamp(0x1000 + i);
            extension.accept(packet);
            if (i == count - 1) {
                packet.ackRequest();
            }
            packets.add(packet);
        }
        connection.setNextPsn(path, Psn.add(first, count));
        return packets;
    }

    /** A WRITE of {@code data} to {@code address} with {@code key}, as {@link #message} packets. */
    public static List<PacketBuilder> write(
            final Testbed testbed, final int path, final long address, final long key, final byte[] data) {
        return message(
                testbed.connection(),
                Opcode.WRITE,
                0,
                path,
                data,
                segment(testbed, Opcode.WRITE_WITH_IMMEDIATE),
                b -> b.remoteAddress(address).remoteKey(key));
    }

    /** A WRITE_WITH_IMMEDIATE of {@code data} to {@code address} with {@code key}, as {@link #message} packets. */
    public static List<PacketBuilder> writeWithImmediate(
            final Testbed testbed, final int path, final long address, final long key, final byte[] data) {
        return message(
                testbed.connection(),
                Opcode.WRITE_WITH_IMMEDIATE,
                0,
                path,
                data,
                segment(testbed, Opcode.WRITE_WITH_IMMEDIATE),
                b -> b.remoteAddress(address).remoteKey(key).immediate(0xC0FFEE));
    }

    /** A segment size that fits every data opcode in the connection's MTU, at most 1 KiB to keep cases small. */
    public static int segment(final Testbed testbed, final Opcode opcode) {
        return Math.min(1024, testbed.connection().maxPayload(opcode));
    }

    /** Sends the packets of a {@link #message} in the order given by their indices (all of them when none named). */
    public static void send(final Testbed testbed, final List<PacketBuilder> packets, final int... order)
            throws IOException {
        if (order.length == 0) {
            for (final PacketBuilder packet : packets) {
                testbed.peer().send(packet);
            }
            return;
        }
        for (final int index : order) {
            testbed.peer().send(packets.get(index));
        }
    }

    /** The PSN of a built packet. */
    public static long psn(final PacketBuilder packet) {
        return packet.toPacket().header().psn();
    }

    /**
     * Waits for a NACK with {@code code} that names one of {@code packets} (path and PSN) of the tester's message,
     * and checks that it names the message's stream and MSN too (clause 5.4.1).
     */
    public static NackPacket awaitNack(
            final Testbed testbed, final int mark, final NackCode code, final List<PacketBuilder> packets) {
        final int path = packets.get(0).toPacket().header().pathId();
        final List<Long> psns = packets.stream().map(TesterMessages::psn).toList();
        final ReceivedPacket received = testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .nack()
                                .connection(Testbed.TESTER_CONNECTION)
                                .path(path)
                                .where(
                                        "names a PSN of the message " + psns,
                                        NackPacket.class,
                                        n -> psns.contains(n.header().psn())),
                        Testbed.WAIT);
        final NackPacket nack = received.nack().orElseThrow();
        final var first = packets.get(0).toPacket();
        org.assertj.core.api.Assertions.assertThat(nack.code())
                .as("9.1.1: the NACK's code for %s", first.opcode())
                .isEqualTo(code);
        if (first instanceof org.mrconf.wire.DataPacket data) {
            org.assertj.core.api.Assertions.assertThat(nack.streamId())
                    .as("5.4.1: the NACK names the rejected packet's stream")
                    .isEqualTo(data.streamId());
            org.assertj.core.api.Assertions.assertThat(nack.messageSequenceNumber())
                    .as("5.4.1: the NACK names the rejected packet's MSN")
                    .isEqualTo(data.messageSequenceNumber());
        }
        return nack;
    }

    /** The payload bytes data {@code packets} carry together: how much of a message they sent. */
    public static long payloadBytes(final List<ReceivedPacket> packets) {
        return packets.stream()
                .mapToLong(p -> p.data().orElseThrow().payloadLength())
                .sum();
    }

    /** How long the DUT must send no new matching packet for {@link #awaitStalled} to deem it stopped. */
    public static final java.time.Duration STALL = java.time.Duration.ofMillis(25);

    /**
     * Waits until the DUT has sent no new packet matching {@code matcher} (e.g. first transmissions of data, which
     * stop when its windows are full) for {@link #STALL}, net of the host's longest stall in that time ({@link
     * org.mrconf.peer.StallAllowance#quietFor}), at most {@link Testbed#WAIT}; returns those packets.
     * Retransmissions by a timer the case does not control do not disturb it when the matcher excludes them.
     */
    public static List<ReceivedPacket> awaitStalled(final Testbed testbed, final int mark, final PacketMatcher matcher)
            throws InterruptedException {
        final org.mrconf.peer.StallMonitor stalls = testbed.stalls();
        final long deadlineNs = stalls.nowNs() + Testbed.WAIT.toNanos();
        int seen = -1;
        long changedNs = stalls.nowNs();
        while (stalls.nowNs() - deadlineNs < 0) {
            final long nowNs = stalls.nowNs();
            final int now = testbed.peer().recorder().matching(mark, matcher).size();
            if (now != seen) {
                changedNs = nowNs;
            } else if (now > 0 && org.mrconf.peer.StallAllowance.quietFor(stalls, changedNs, nowNs, STALL.toNanos())) {
                break; // quiet net of the host's stalls: a DUT the host held back did not stop
            }
            seen = now;
            Thread.sleep(STALL.toMillis());
        }
        return testbed.peer().recorder().matching(mark, matcher);
    }

    /**
     * A READ_RESPONSE the DUT stopped sending at its windows, nothing acknowledged, with part of it still unsent.
     *
     * @param mark      the recorder's mark before the READ was requested
     * @param response  its first transmissions (the READ's MSN, to the tester's connection)
     * @param sent      those sent before the DUT stalled
     * @param sentBytes their payload bytes: less than the READ's length
     */
    public record StalledResponse(int mark, PacketMatcher response, List<ReceivedPacket> sent, long sentBytes) {}

    /**
     * Requests a READ of {@code length} bytes of the DUT's region {@code key} at {@code address} on stream 0, path 0,
     * acknowledges nothing, and waits until the DUT stops sending its response ({@link #awaitStalled}). A case
     * that judges what the responder does with the rest of the response (after a NACK, an invalidation) needs a
     * response longer than any window the device may declare; where the DUT sent it all before any ACK, INCONCLUSIVE
     * names what would decide.
     *
     * @param clause the clause of the case, for its set-up's messages
     */
    public static StalledResponse stalledReadResponse(
            final Testbed testbed,
            final long address,
            final long key,
            final int length,
            final long sinkHandle,
            final String clause)
            throws IOException, InterruptedException {
        final PeerConnection connection = testbed.connection();
        final PacketMatcher response = PacketMatcher.expect()
                .data()
                .opcode(Opcode.READ_RESPONSE)
                .connection(Testbed.TESTER_CONNECTION)
                .msn(connection.nextMsn(0))
                .firstTransmission();
        final int mark = testbed.peer().mark();
        connection.readRequest(0, address, key, length, sinkHandle, 0);
        final List<ReceivedPacket> sent = awaitStalled(testbed, mark, response);
        org.assertj.core.api.Assertions.assertThat(sent)
                .as("%s set-up: the DUT answers the %d-byte READ within %s", clause, length, Testbed.WAIT)
                .isNotEmpty();
        final long sentBytes = payloadBytes(sent);
        if (sentBytes >= length) {
            throw Inconclusive.because("the DUT sent all " + sent.size() + " packets of a " + length + "-byte"
                    + " READ_RESPONSE before any ACK, so no part of it was left unsent; a response longer than its"
                    + " windows would let the case decide");
        }
        return new StalledResponse(mark, response, sent, sentBytes);
    }

    /**
     * Acknowledges, in one ACK of path 0 echoing {@code echo}, every data packet the DUT sent to the tester's connection
     * since {@code mark}: no resend is due after it, and the DUT's windows open.
     */
    public static void acknowledgeEverythingSent(final Testbed testbed, final int mark, final long echo)
            throws IOException {
        for (final ReceivedPacket packet : testbed.peer().recorder().since(mark)) {
            if (packet.data().isPresent()
                    && packet.data().orElseThrow().header().destinationConnectionId() == Testbed.TESTER_CONNECTION) {
                testbed.connection().onReceived(packet);
            }
        }
        testbed.peer().send(testbed.connection().ackFor(0, echo));
    }

    /** Polls until every one of {@code wrIds} has completed, keeping all of them, or fails after {@link Testbed#WAIT}. */
    public static java.util.Map<Long, org.mrconf.dut.DutCompletion> awaitCompletions(
            final Testbed testbed, final long... wrIds) throws DutControlException {
        final java.util.Map<Long, org.mrconf.dut.DutCompletion> found = new java.util.HashMap<>();
        final long deadline = System.nanoTime() + Testbed.WAIT.toNanos();
        while (!found.keySet()
                        .containsAll(java.util.Arrays.stream(wrIds).boxed().toList())
                && System.nanoTime() - deadline < 0) {
            for (final var completion : testbed.control().pollCompletions(64, java.time.Duration.ofMillis(100))) {
                found.put(completion.wrId(), completion);
            }
        }
        for (final long wrId : wrIds) {
            org.assertj.core.api.Assertions.assertThat(found)
                    .as("a completion for work request %d within %s", wrId, Testbed.WAIT)
                    .containsKey(wrId);
        }
        return found;
    }

    /** Checks that {@code length} bytes at {@code address} of region {@code key} still hold {@code expected}. */
    public static void assertMemory(
            final Testbed testbed, final String clause, final long key, final long address, final byte[] expected)
            throws DutControlException {
        org.assertj.core.api.Assertions.assertThat(testbed.control().readRegion(key, address, expected.length))
                .as("%s: the %d bytes at 0x%x", clause, expected.length, address)
                .isEqualTo(expected);
    }

    /** Skips (not applicable) a case or step for a profile the device does not claim (spec clause 12.1.1). */
    public static void requireProfile(final Testbed testbed, final Profile profile) {
        if (!testbed.profile().claims(profile)) {
            throw NotApplicable.because("the device does not claim the " + profile + " profile");
        }
    }

    /** Skips (not applicable) a case of a SHOULD or MAY clause the device does not list (spec clause 12.1.2). */
    public static void requireOptional(final Testbed testbed, final String clause) {
        if (!testbed.profile().implementsOptional(clause)) {
            throw NotApplicable.because(
                    "the device does not list optional clause " + clause + " in its conformance statement");
        }
    }
}
