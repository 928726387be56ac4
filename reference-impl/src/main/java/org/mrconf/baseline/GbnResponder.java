package org.mrconf.baseline;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.mrconf.net.EcnCodepoint;
import org.mrconf.net.PacketReceiver;
import org.mrconf.net.PacketTransmitter;

/**
 * The receiving side of the go-back-N baseline, modelled on a RoCEv2 reliable-connection responder.
 * Benchmarks only: this is not MetaRoCE.
 *
 * <p>It accepts only the DATA packet with the PSN it expects. In-order packets are delivered and
 * acknowledged cumulatively: after {@link GbnConfig#ackEveryPackets()} of them, or at once for a packet
 * flagged LAST or ACK_REQUEST. The first packet past a gap is dropped and answered with a NAK carrying
 * the expected PSN, like RoCE's NAK-sequence-error; further packets past the same gap are dropped
 * silently until the expected PSN arrives. A duplicate (an old PSN) is dropped and answered with an ACK
 * of the last in-order PSN, so a lost ACK cannot stall the requester. CE marks are counted, never
 * answered (no CNPs). The responder has no timers.
 *
 * <p>One responder serves one requester; it answers whichever node sent the DATA.
 */
public final class GbnResponder implements PacketReceiver {
    private final GbnConfig config;
    private final GbnHeader inbound = new GbnHeader();
    private final GbnHeader outbound = new GbnHeader();
    private final ByteBuffer replyBuffer = ByteBuffer.allocate(GbnHeader.HEADER_LENGTH);
    private GbnDataHandler dataHandler;

    private PacketTransmitter transmitter;
    private int srcPort;

    /** The PSN expected next, 32-bit. */
    private long expectedPsn;

    private boolean nakOutstanding;
    private int unacknowledged;
    private int messageOffset;
    private long[] messageReceivedNs = new long[16];
    private int messagesReceived;

    private long packetsAccepted;
    private long bytesDelivered;
    private long outOfSequenceDrops;
    private long duplicatePackets;
    private long acksSent;
    private long naksSent;
    private long ceReceived;
    private long payloadMismatches;
    private long malformedPackets;

    public GbnResponder(final GbnConfig config) {
        this.config = config;
        this.expectedPsn = config.initialPsn();
    }

    /**
     * Sets how replies leave: called once by the set-up code after attaching to the fabric.
     *
     * @param srcPort the UDP source port of ACKs and NAKs, which fixes their path
     */
    public GbnResponder connect(final PacketTransmitter transmitter, final int srcPort) {
        this.transmitter = transmitter;
        this.srcPort = srcPort;
        return this;
    }

    /** Receives accepted payload from now on; {@code null} for none. */
    public GbnResponder dataHandler(final GbnDataHandler handler) {
        this.dataHandler = handler;
        return this;
    }

    @Override
    public void onPacket(
            final int srcNode,
            final int srcPort,
            final int ecn,
            final ByteBuffer buffer,
            final int offset,
            final int length,
            final long nowNs) {
        if (length < GbnHeader.HEADER_LENGTH) {
            malformedPackets++;
            return;
        }
        inbound.wrap(buffer, offset);
        final int payloadLength = inbound.payloadLength();
        if (inbound.type() != GbnHeader.TYPE_DATA || payloadLength > length - GbnHeader.HEADER_LENGTH) {
            malformedPackets++;
            return;
        }
        if (ecn == EcnCodepoint.CE) {
            ceReceived++;
        }

        final long psn = inbound.psn();
        final int distance = (int) (psn - expectedPsn);
        if (distance == 0) {
            accept(srcNode, buffer, offset, payloadLength, nowNs);
        } else if (distance > 0) {
            outOfSequenceDrops++;
            if (!nakOutstanding) {
                nakOutstanding = true;
                reply(srcNode, GbnHeader.TYPE_NAK, expectedPsn, 0);
                naksSent++;
            }
        } else {
            duplicatePackets++;
            reply(srcNode, GbnHeader.TYPE_ACK, expectedPsn - 1, inbound.messageId());
            acksSent++;
        }
    }

    @Override
    public void onWakeup(final long nowNs) {
        // No timers: every reply is triggered by a DATA packet.
    }

    @Override
    public long nextWakeupNs() {
        return Long.MAX_VALUE;
    }

    /** Payload bytes accepted in order. */
    public long bytesDelivered() {
        return bytesDelivered;
    }

    /** DATA packets accepted in order. */
    public long packetsAccepted() {
        return packetsAccepted;
    }

    /** DATA packets dropped for arriving past a gap. */
    public long outOfSequenceDrops() {
        return outOfSequenceDrops;
    }

    /** DATA packets dropped as already received. */
    public long duplicatePackets() {
        return duplicatePackets;
    }

    public long acksSent() {
        return acksSent;
    }

    public long naksSent() {
        return naksSent;
    }

    /** DATA packets that arrived marked CE: counted, not answered. */
    public long ceReceived() {
        return ceReceived;
    }

    /**
     * Accepted packets whose payload differed from {@link GbnPayload}'s pattern (with
     * {@link GbnConfig#patternPayload()}): the baseline has no CRC, so corruption shows only here.
     */
    public long payloadMismatches() {
        return payloadMismatches;
    }

    public long malformedPackets() {
        return malformedPackets;
    }

    /** The PSN expected next. */
    public long expectedPsn() {
        return expectedPsn;
    }

    public int messagesReceived() {
        return messagesReceived;
    }

    /** When the last packet of the {@code n}-th message (counting from 0) was accepted. */
    public long messageReceivedNs(final int n) {
        if (n < 0 || n >= messagesReceived) {
            throw new IndexOutOfBoundsException("message=" + n + " received=" + messagesReceived);
        }
        return messageReceivedNs[n];
    }

    @Override
    public String toString() {
        return "GbnResponder{expectedPsn=" + expectedPsn + ", accepted=" + packetsAccepted + ", outOfSequence="
                + outOfSequenceDrops + ", duplicates=" + duplicatePackets + ", naks=" + naksSent + '}';
    }

    private void accept(
            final int srcNode, final ByteBuffer buffer, final int offset, final int payloadLength, final long nowNs) {
        final long messageId = inbound.messageId();
        final int flags = inbound.flags();
        final boolean last = (flags & GbnHeader.FLAG_LAST) != 0;
        final int payloadOffset = offset + GbnHeader.HEADER_LENGTH;
        if (config.patternPayload()
                && !GbnPayload.matches(buffer, payloadOffset, messageId, messageOffset, payloadLength)) {
            payloadMismatches++;
        }
        if (dataHandler != null) {
            dataHandler.onData(messageId, messageOffset, buffer, payloadOffset, payloadLength, last, nowNs);
        }
        final long psn = expectedPsn;
        expectedPsn = (expectedPsn + 1) & 0xFFFF_FFFFL;
        nakOutstanding = false;
        packetsAccepted++;
        bytesDelivered += payloadLength;
        if (last) {
            recordMessage(nowNs);
            messageOffset = 0;
        } else {
            messageOffset += payloadLength;
        }
        if (++unacknowledged >= config.ackEveryPackets()
                || (flags & (GbnHeader.FLAG_LAST | GbnHeader.FLAG_ACK_REQUEST)) != 0) {
            unacknowledged = 0;
            reply(srcNode, GbnHeader.TYPE_ACK, psn, messageId);
            acksSent++;
        }
    }

    private void recordMessage(final long nowNs) {
        if (messagesReceived == messageReceivedNs.length) {
            messageReceivedNs = Arrays.copyOf(messageReceivedNs, messagesReceived * 2);
        }
        messageReceivedNs[messagesReceived++] = nowNs;
    }

    private void reply(final int dstNode, final int type, final long psn, final long messageId) {
        outbound.wrap(replyBuffer, 0)
                .type(type)
                .flags(0)
                .payloadLength(0)
                .psn(psn)
                .messageId(messageId);
        transmitter.transmit(dstNode, srcPort, config.ecn(), replyBuffer, 0, GbnHeader.HEADER_LENGTH);
    }
}
