package org.mrconf.transport;

import java.nio.ByteBuffer;
import org.mrconf.net.EcnCodepoint;
import org.mrconf.wire.AckFlyweight;
import org.mrconf.wire.DataHeaderFlyweight;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.PacketFlags;

/**
 * The decisions {@link OutboundPackets} takes while it encodes a packet, each answered by {@link #CORRECT} as the spec
 * says. The reference's self-validation defects (package {@code org.mrconf.transport.defects}) replace one or two answers
 * each and forward the rest; nothing here allocates or boxes.
 */
public interface OutboundSeam {
    /** The flags a data packet starts from (clause 6.4.2): RETRANSMISSION on a resend, none otherwise. */
    default int dataFlags(final boolean retransmission) {
        return retransmission ? PacketFlags.RETRANSMISSION : PacketFlags.NONE;
    }

    /** The path id a resend of a packet first sent on {@code pathId} carries: its own (clause 6.4.2). */
    default int resendPathId(final int pathId, final int pathCount, final boolean pathHealthy) {
        return pathId;
    }

    /** The transmit timestamp of a resend: the time it leaves now (clause 6.6.1), not when it first left. */
    default long resendTimestampNs(final long nowNs, final long firstSentNs) {
        return nowNs;
    }

    /** The message length field of a data packet: the whole message's (clause 5.2). */
    default long messageLengthField(final long messageLength, final int payloadLength) {
        return messageLength;
    }

    /** The remote address a WRITE packet carries: the message's, whatever the packet's offset (clause 5.2). */
    default long writeRemoteAddress(final long messageRemoteAddress, final long offset) {
        return messageRemoteAddress;
    }

    /** The RSN of a SEND packet: the receive it is matched to, not its MSN (clause 7.2). */
    default long sendReceiveSequenceNumber(final long msn, final long rsn) {
        return rsn;
    }

    /** The MSN field of a READ response: the READ's (clause 7.4). */
    default long readResponseMsn(final long msn) {
        return msn;
    }

    /** Last touches on an encoded data header, before its payload: none (reserved fields zero, version 1.0). */
    default void finishDataHeader(final DataHeaderFlyweight header, final int flags) {}

    /**
     * Last touches on the whole encoded data packet of {@code packetLength} bytes at offset 0 of {@code buffer};
     * returns the length to transmit: none, the packet as encoded.
     */
    default int finishDataPacket(final ByteBuffer buffer, final int packetLength) {
        return packetLength;
    }

    /** The ECN codepoint of a data packet: ECT(0) (clause 4.1.7). */
    default int dataEcn() {
        return EcnCodepoint.ECT_0;
    }

    /** The ECN codepoint of a probe: ECT(0), like data (clause 4.1.7). */
    default int probeEcn() {
        return EcnCodepoint.ECT_0;
    }

    /** The CE count an ACK carries, given the count since the last ACK capped to the field (clause 8.2.2). */
    default int ackCeCount(final int counted) {
        return counted;
    }

    /** The receive path whose window an ACK for {@code pathId} reports: its own (clause 5.3). */
    default int ackWindowPathId(final int pathId, final int pathCount) {
        return pathId;
    }

    /** Last touches on an encoded ACK in {@code buffer}, before its trailer: none. */
    default void finishAck(final AckFlyweight ack, final ByteBuffer buffer) {}

    /** The path id a NACK for a packet of {@code pathId} carries: that path's (clause 9.1). */
    default int nackPathId(final int pathId) {
        return pathId;
    }

    /** The code a NACK for {@code reason} carries on the wire: the reason's own (Table 5-13). */
    default NackCode nackCode(final NackCode reason) {
        return reason;
    }

    /** The receive path's CE count after it sent a NACK: unchanged, the next ACK reports it (clause 8.2.2). */
    default int ceCountAfterNack(final int ceSinceAck) {
        return ceSinceAck;
    }

    /** The spec's answer to every decision. */
    OutboundSeam CORRECT = new OutboundSeam() {};

    /** Forwards every decision to the next seam; a defect extends it and overrides what it changes. */
    abstract class Forwarding implements OutboundSeam {
        protected final OutboundSeam next;

        protected Forwarding(final OutboundSeam next) {
            this.next = next;
        }

        @Override
        public int dataFlags(final boolean retransmission) {
            return next.dataFlags(retransmission);
        }

        @Override
        public int resendPathId(final int pathId, final int pathCount, final boolean pathHealthy) {
            return next.resendPathId(pathId, pathCount, pathHealthy);
        }

        @Override
        public long resendTimestampNs(final long nowNs, final long firstSentNs) {
            return next.resendTimestampNs(nowNs, firstSentNs);
        }

        @Override
        public long messageLengthField(final long messageLength, final int payloadLength) {
            return next.messageLengthField(messageLength, payloadLength);
        }

        @Override
        public long writeRemoteAddress(final long messageRemoteAddress, final long offset) {
            return next.writeRemoteAddress(messageRemoteAddress, offset);
        }

        @Override
        public long sendReceiveSequenceNumber(final long msn, final long rsn) {
            return next.sendReceiveSequenceNumber(msn, rsn);
        }

        @Override
        public long readResponseMsn(final long msn) {
            return next.readResponseMsn(msn);
        }

        @Override
        public void finishDataHeader(final DataHeaderFlyweight header, final int flags) {
            next.finishDataHeader(header, flags);
        }

        @Override
        public int finishDataPacket(final ByteBuffer buffer, final int packetLength) {
            return next.finishDataPacket(buffer, packetLength);
        }

        @Override
        public int dataEcn() {
            return next.dataEcn();
        }

        @Override
        public int probeEcn() {
            return next.probeEcn();
        }

        @Override
        public int ackCeCount(final int counted) {
            return next.ackCeCount(counted);
        }

        @Override
        public int ackWindowPathId(final int pathId, final int pathCount) {
            return next.ackWindowPathId(pathId, pathCount);
        }

        @Override
        public void finishAck(final AckFlyweight ack, final ByteBuffer buffer) {
            next.finishAck(ack, buffer);
        }

        @Override
        public int nackPathId(final int pathId) {
            return next.nackPathId(pathId);
        }

        @Override
        public NackCode nackCode(final NackCode reason) {
            return next.nackCode(reason);
        }

        @Override
        public int ceCountAfterNack(final int ceSinceAck) {
            return next.ceCountAfterNack(ceSinceAck);
        }
    }
}
