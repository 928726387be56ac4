package org.mrconf.transport;

import java.nio.ByteBuffer;
import org.mrconf.net.Ecn;
import org.mrconf.net.PacketTransmitter;
import org.mrconf.wire.AckFlyweight;
import org.mrconf.wire.DataHeaderFlyweight;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.PacketEncoder;
import org.mrconf.wire.PacketFlags;

/**
 * Builds every packet the endpoint sends into one reusable buffer and hands it to the transmitter.
 * The payload is copied once, from the registered region into the packet, as a NIC's DMA would.
 */
final class OutboundPackets {
    private final PacketEncoder encoder = new PacketEncoder();
    private final ByteBuffer buffer;
    private final PacketTransmitter transmitter;
    private final Counters counters;

    /** Self-validation defects (see {@link org.mrconf.defect.Defect}): a wrong entry in the code table each. */
    private final boolean receiverNotReadyWrongCode;

    private final boolean messageTooLongWrongCode;
    private final boolean invalidRequestWrongCode;
    private final boolean outOfWindowWrongCode;
    private final boolean boundsWrongCode;
    private final boolean ackReportsAnotherPath;
    private final boolean ceCountNeverSet;

    OutboundPackets(
            final PacketTransmitter transmitter,
            final Counters counters,
            final int mtuBytes,
            final org.mrconf.defect.Defects defects) {
        this.transmitter = transmitter;
        this.counters = counters;
        this.receiverNotReadyWrongCode = defects.has(org.mrconf.defect.Defect.RECEIVER_NOT_READY_WRONG_CODE);
        this.messageTooLongWrongCode = defects.has(org.mrconf.defect.Defect.MESSAGE_TOO_LONG_WRONG_CODE);
        this.invalidRequestWrongCode = defects.has(org.mrconf.defect.Defect.INVALID_REQUEST_WRONG_CODE);
        this.outOfWindowWrongCode = defects.has(org.mrconf.defect.Defect.OUT_OF_WINDOW_WRONG_CODE);
        this.boundsWrongCode = defects.has(org.mrconf.defect.Defect.BOUNDS_WRONG_CODE);
        this.ackReportsAnotherPath = defects.has(org.mrconf.defect.Defect.ACK_REPORTS_ANOTHER_PATH);
        this.ceCountNeverSet = defects.has(org.mrconf.defect.Defect.CE_COUNT_NEVER_SET);
        this.buffer = ByteBuffer.allocateDirect(Math.max(mtuBytes, 256));
    }

    /** Sends (or resends) the packet recorded for {@code psn} on {@code path} (spec clause 6.4.2). */
    void sendData(
            final Connection connection,
            final PathSender path,
            final long psn,
            final boolean retransmission,
            final long nowNs) {
        final int slot = PathSender.slot(psn);
        final SendMessage message = path.slotMessage[slot];
        final long offset = path.slotOffset[slot];
        final int length = path.slotLength[slot];
        int flags = retransmission ? PacketFlags.RETRANSMISSION : PacketFlags.NONE;
        if (offset + length == message.length || message.opcode == Opcode.READ_REQUEST) {
            flags |= PacketFlags.ACK_REQUEST; // the last packet of a message: its completion should not wait
        }
        final DataHeaderFlyweight header = encoder.data(buffer, 0, message.opcode)
                .flags(flags)
                .destinationConnectionId(connection.config.peerId() & Serial.MASK)
                .pathId(path.pathId)
                .psn(psn)
                .streamId(message.streamId)
                .payloadLength(length)
                .messageSequenceNumber(message.msn)
                .messageLength(message.length)
                .messageOffset(offset)
                .transmitTimestamp(nowNs & Serial.MASK);
        switch (message.opcode) {
            case WRITE -> header.remoteAddress(message.remoteAddress).remoteKey(message.remoteKey & Serial.MASK);
            case WRITE_WITH_IMMEDIATE ->
                header.remoteAddress(message.remoteAddress)
                        .remoteKey(message.remoteKey & Serial.MASK)
                        .immediate(message.immediate);
            case SEND -> header.receiveSequenceNumber(message.matchValue);
            case READ_REQUEST ->
                header.remoteAddress(message.remoteAddress)
                        .remoteKey(message.remoteKey & Serial.MASK)
                        .sinkHandle(message.matchValue);
            case READ_RESPONSE -> header.sinkHandle(message.matchValue);
            default -> throw new IllegalStateException("not a data opcode: " + message.opcode);
        }
        if (length > 0) {
            final MemoryRegion source = message.localRegion;
            buffer.put(header.payloadIndex(), source.memory(), source.indexOf(message.localAddress + offset), length);
        }
        final int packetLength = encoder.finish(buffer, 0, message.opcode.packetLength(length));
        transmitter.transmit(connection.config.peerNode(), path.entropy, Ecn.ECT_0, buffer, 0, packetLength);
        counters.increment(retransmission ? Counter.TX_RETRANSMISSIONS : Counter.TX_DATA_PACKETS);
    }

    /** Sends the ACK of one receive path (spec sections 5.3 and 8) and resets what it reported. */
    void sendAck(final Connection connection, final PathReceiver path, final long rateHintMbps) {
        final AckFlyweight ack = encoder.ack(buffer, 0)
                .destinationConnectionId(connection.config.peerId() & Serial.MASK)
                .pathId(path.pathId)
                .echoedTimestamp(path.lastTimestamp)
                .ceCount(ceCountNeverSet ? 0 : Math.min(path.ceSinceAck, AckFlyweight.CE_COUNT_MAX))
                .rateHint(rateHintMbps);
        final PathReceiver[] paths = connection.receivePaths;
        (ackReportsAnotherPath ? paths[(path.pathId + 1) % paths.length] : path).window.writeTo(ack);
        final int packetLength = encoder.finish(buffer, 0, Opcode.ACK.packetLength(0));
        transmitter.transmit(
                connection.config.peerNode(),
                replyEntropy(connection, path.pathId),
                Ecn.NOT_ECT,
                buffer,
                0,
                packetLength);
        path.ceSinceAck = 0;
        path.unacknowledged = 0;
        counters.increment(Counter.TX_ACKS);
    }

    /** Rejects one packet (spec section 9). */
    void sendNack(
            final Connection connection,
            final int pathId,
            final long psn,
            final NackCode code,
            final int streamId,
            final long msn,
            final long retryAfterMicros) {
        encoder.nack(buffer, 0)
                .destinationConnectionId(connection.config.peerId() & Serial.MASK)
                .pathId(pathId)
                .psn(psn)
                .code(onTheWire(code))
                .streamId(streamId)
                .messageSequenceNumber(msn)
                .cumulativePsn(connection.receivePaths[pathId].window.cumulativePsn())
                .retryAfter(retryAfterMicros);
        final int packetLength = encoder.finish(buffer, 0, Opcode.NACK.packetLength(0));
        transmitter.transmit(
                connection.config.peerNode(), replyEntropy(connection, pathId), Ecn.NOT_ECT, buffer, 0, packetLength);
        counters.increment(Counter.TX_NACKS);
    }

    /** The code a NACK carries: the one its reason names, unless a defect swaps it. */
    private NackCode onTheWire(final NackCode code) {
        return switch (code) {
            case RECEIVER_NOT_READY -> receiverNotReadyWrongCode ? NackCode.INVALID_REQUEST : code;
            case MESSAGE_TOO_LONG -> messageTooLongWrongCode ? NackCode.BOUNDS : code;
            case INVALID_REQUEST -> invalidRequestWrongCode ? NackCode.REMOTE_ACCESS : code;
            case PSN_OUT_OF_WINDOW -> outOfWindowWrongCode ? NackCode.INVALID_REQUEST : code;
            case BOUNDS -> boundsWrongCode ? NackCode.REMOTE_ACCESS : code;
            default -> code;
        };
    }

    /**
     * ACKs and NACKs go back with the source port of the latest packet they answer, so that when the
     * sender re-paths around a broken route its acknowledgements follow (clause 8.1.6).
     */
    private static int replyEntropy(final Connection connection, final int pathId) {
        final int echoed = connection.receivePaths[pathId].lastEntropy;
        return echoed != 0 ? echoed : connection.sendPaths[pathId].entropy;
    }

    /** Tests a path's liveness without using a PSN (spec clauses 5.5.1, 6.7.2). */
    void sendProbe(final Connection connection, final PathSender path, final long nowNs) {
        encoder.probe(buffer, 0)
                .destinationConnectionId(connection.config.peerId() & Serial.MASK)
                .pathId(path.pathId)
                .psn(path.nextPsn)
                .transmitTimestamp(nowNs & Serial.MASK);
        final int packetLength = encoder.finish(buffer, 0, Opcode.PROBE.packetLength(0));
        transmitter.transmit(connection.config.peerNode(), path.entropy, Ecn.NOT_ECT, buffer, 0, packetLength);
        counters.increment(Counter.TX_PROBES);
    }
}
