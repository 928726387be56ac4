package org.mrconf.cases;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.OptionalLong;
import org.apiguardian.api.API;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.Opcode;

/**
 * Makes the DUT send: posts work requests on the testbed's connection from the DUT's region and collects the
 * packets it puts on the wire, for cases that judge the DUT as a sender. The tester acknowledges every data packet
 * (auto-ACK), as a correct receiver would.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class DutTraffic {
    /** Where the DUT's messages land at the tester (the tester has no memory: the address is only carried). */
    public static final long REMOTE_ADDRESS = 0x00C0_0000L;
    /** The tester's key the DUT's WRITEs carry. */
    public static final long REMOTE_KEY = 0x5151;

    private DutTraffic() {}

    /** Every data packet or READ_REQUEST the DUT sends on the testbed's connection, first transmissions only. */
    public static PacketMatcher dataFromDut() {
        return PacketMatcher.expect()
                .data()
                .connection(Testbed.TESTER_CONNECTION)
                .firstTransmission();
    }

    /** An ACK the DUT sends on the testbed's connection, on {@code path}. */
    public static PacketMatcher ackOf(final int path) {
        return PacketMatcher.expect()
                .ack()
                .connection(Testbed.TESTER_CONNECTION)
                .path(path);
    }

    /**
     * A NACK with {@code code} answering the DUT's {@code data} packet as a receiver fills one in (clauses 5.4.1, 9.1.6):
     * its path, PSN, stream id and MSN, and the PSN as cumulative psn, addressed to connection {@code connectionId}
     * (the DUT's own id, or the tester's for a NACK UNKNOWN_CONNECTION, which echoes the packet, clause 11.2.3). The
     * caller sets a retry-after other than 0.
     */
    public static org.mrconf.peer.PacketBuilder nackOf(
            final org.mrconf.wire.DataPacket data, final org.mrconf.wire.NackCode code, final long connectionId) {
        return org.mrconf.peer.PacketBuilder.nack(code)
                .connection(connectionId)
                .path(data.header().pathId())
                .psn(data.header().psn())
                .stream(data.streamId())
                .msn(data.messageSequenceNumber())
                .cumulativePsn(data.header().psn())
                .retryAfter(0);
    }

    /**
     * Posts a WRITE {@code wrId} of the {@code length} bytes at {@code offset} in the testbed's region, on stream 0,
     * to as far into the tester's {@link #REMOTE_ADDRESS}, and acknowledges nothing: for cases that hold the DUT's
     * ACKs back and count what it sends.
     */
    public static void postWrite(final Testbed testbed, final long wrId, final long offset, final long length)
            throws Exception {
        testbed.control()
                .postWrite(
                        new WorkRequest(Testbed.DUT_CONNECTION, 0, wrId, testbed.key(), Testbed.BASE + offset, length),
                        REMOTE_ADDRESS + offset,
                        REMOTE_KEY);
    }

    /**
     * Posts a WRITE {@code wrId} of the {@code length} bytes at {@code source} on stream 0 to {@code remoteAddress} and
     * {@code remoteKey}, acknowledging nothing, and returns its first packet to arrive: for cases that answer the DUT's
     * packets themselves (a NACK, a late or reordered ACK). What the source holds is the caller's choice.
     */
    public static ReceivedPacket postWriteAndAwaitFirst(
            final Testbed testbed,
            final long wrId,
            final long source,
            final int length,
            final long remoteAddress,
            final long remoteKey)
            throws Exception {
        final int mark = testbed.peer().mark();
        testbed.control()
                .postWrite(
                        new WorkRequest(Testbed.DUT_CONNECTION, 0, wrId, testbed.key(), source, length),
                        remoteAddress,
                        remoteKey);
        return testbed.peer().await(mark, dataFromDut().opcode(Opcode.WRITE), Testbed.WAIT);
    }

    /**
     * Posts the READ {@code request} from {@code remoteAddress} and {@code remoteKey}, waits for its READ_REQUEST and
     * acknowledges that one packet, acknowledging nothing else; returns the READ_REQUEST, which the caller answers.
     */
    public static org.mrconf.wire.DataPacket postReadAndAcknowledgeItsRequest(
            final Testbed testbed, final WorkRequest request, final long remoteAddress, final long remoteKey)
            throws Exception {
        final int mark = testbed.peer().mark();
        testbed.control().postRead(request, remoteAddress, remoteKey);
        final org.mrconf.wire.DataPacket read = testbed.peer()
                .await(mark, dataFromDut().opcode(Opcode.READ_REQUEST), Testbed.WAIT)
                .data()
                .orElseThrow();
        testbed.peer()
                .send(CaseSteps.ack(
                        read.header().pathId(),
                        org.mrconf.peer.Psn.add(read.header().psn(), 1),
                        read.transmitTimestamp()));
        return read;
    }

    /**
     * Posts a WRITE (or WRITE_WITH_IMMEDIATE when {@code immediate} is present) of {@code length} seeded bytes on
     * {@code stream} and returns its first transmissions, in arrival order.
     */
    public static List<ReceivedPacket> write(
            final Testbed testbed, final int stream, final long wrId, final int length, final OptionalLong immediate)
            throws Exception {
        final Opcode opcode = immediate.isPresent() ? Opcode.WRITE_WITH_IMMEDIATE : Opcode.WRITE;
        final long source = sourceAddress(wrId);
        testbed.control().writeRegion(testbed.key(), source, Testbed.randomBytes(length, wrId));
        testbed.connection().autoAck(true);
        final int mark = testbed.peer().mark();
        testbed.control()
                .postWrite(
                        new WorkRequest(Testbed.DUT_CONNECTION, stream, wrId, testbed.key(), source, length),
                        REMOTE_ADDRESS,
                        REMOTE_KEY,
                        immediate);
        return await(testbed, mark, opcode, packets(testbed, opcode, length));
    }

    /** Posts a SEND of {@code length} seeded bytes on {@code stream}; returns its first transmissions. */
    public static List<ReceivedPacket> send(final Testbed testbed, final int stream, final long wrId, final int length)
            throws Exception {
        final long source = sourceAddress(wrId);
        testbed.control().writeRegion(testbed.key(), source, Testbed.randomBytes(length, wrId));
        testbed.connection().autoAck(true);
        final int mark = testbed.peer().mark();
        testbed.control()
                .postSend(new WorkRequest(Testbed.DUT_CONNECTION, stream, wrId, testbed.key(), source, length));
        return await(testbed, mark, Opcode.SEND, packets(testbed, Opcode.SEND, length));
    }

    /** Posts a READ of {@code length} bytes into the DUT's region; returns its READ_REQUEST. */
    public static ReceivedPacket read(final Testbed testbed, final int stream, final long wrId, final int length)
            throws Exception {
        testbed.connection().autoAck(true);
        final int mark = testbed.peer().mark();
        testbed.control()
                .postRead(
                        new WorkRequest(
                                Testbed.DUT_CONNECTION, stream, wrId, testbed.key(), sourceAddress(wrId), length),
                        REMOTE_ADDRESS,
                        REMOTE_KEY);
        return await(testbed, mark, Opcode.READ_REQUEST, 1).get(0);
    }

    /**
     * Answers the READ_REQUEST {@code request} with READ_RESPONSEs carrying {@code data}, at full segments on the
     * request's path, the last one asking for an ACK, and waits for that ACK. Returns the last response's PSN.
     */
    public static long answerRead(final Testbed testbed, final ReceivedPacket request, final byte[] data)
            throws Exception {
        final org.mrconf.wire.DataPacket read = request.data().orElseThrow();
        final int path = read.header().pathId();
        final int segment = testbed.connection().maxPayload(Opcode.READ_RESPONSE);
        final int segments = CaseSteps.segments(data.length, segment);
        final int mark = testbed.peer().mark();
        long last = 0;
        for (int i = 0; i < segments; i++) {
            final org.mrconf.peer.PacketBuilder response =
                    CaseSteps.readResponseTo(testbed.connection(), read, data, segment, i, path);
            if (i == segments - 1) {
                response.ackRequest();
            }
            last = testbed.connection().sendNew(response, path).psn();
        }
        testbed.peer().await(mark, PacketMatcher.expect().ack().path(path).covers(last), Testbed.WAIT);
        return last;
    }

    /** The seeded bytes a work request of this id sends. */
    public static byte[] bytesOf(final long wrId, final int length) {
        return Testbed.randomBytes(length, wrId);
    }

    /** The DUT-side address the bytes of work request {@code wrId} are taken from: 64 KiB apart. */
    public static long sourceAddress(final long wrId) {
        return Testbed.BASE + 0x1_0000L * (wrId % 15);
    }

    /** How many packets a message of {@code length} bytes takes at full segments. */
    public static int packets(final Testbed testbed, final Opcode opcode, final int length) {
        final int payload = testbed.connection().maxPayload(opcode);
        return Math.max(1, (length + payload - 1) / payload);
    }

    private static List<ReceivedPacket> await(
            final Testbed testbed, final int mark, final Opcode opcode, final int count) {
        return testbed.peer().recorder().awaitCount(mark, dataFromDut().opcode(opcode), count, Testbed.WAIT);
    }
}
