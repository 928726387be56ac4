package org.mrconf.transport;

import java.nio.ByteBuffer;
import org.mrconf.net.EcnCodepoint;
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
    /** The decisions the spec fixes about what each packet carries. */
    private final OutboundSeam seam;

    private final boolean reportsCongestion;
    /** The ECN codepoint of ACKs and NACKs: Not-ECT or ECT, the device's choice (clause 4.1.7, freedom F-4). */
    private final int controlPacketEcn;
    /** The ECN-capable codepoint of data and PROBEs, ECT(0) or ECT(1): the device's choice (clause 4.1.7, F-3). */
    private final int ectCodepoint;

    OutboundPackets(final PacketTransmitter transmitter, final Counters counters, final int mtuBytes) {
        this(transmitter, counters, mtuBytes, OutboundSeam.CORRECT, true, OpenChoices.STANDARD);
    }

    /**
     * @param reportsCongestion whether ACKs carry the CE count and rate hint; false for an endpoint without the
     *                          congestion profile, whose ACKs carry 0 and no limit (clause 8.2.6)
     * @param choices           the ECN codepoints the device chose ({@link OpenChoices#ectCodepoint()}, {@link
     *                          OpenChoices#controlPacketEcn()})
     */
    OutboundPackets(
            final PacketTransmitter transmitter,
            final Counters counters,
            final int mtuBytes,
            final OutboundSeam seam,
            final boolean reportsCongestion,
            final OpenChoices choices) {
        this.reportsCongestion = reportsCongestion;
        this.controlPacketEcn = choices.controlPacketEcn();
        this.ectCodepoint = choices.ectCodepoint();
        this.seam = seam;
        this.transmitter = transmitter;
        this.counters = counters;
        this.buffer = ByteBuffer.allocateDirect(Math.max(mtuBytes, 256) + SHIM_BYTES);
    }

    /** The UDP source port that packets with this entropy leave from (the transmitter may map entropy). */
    int sourcePortOf(final int entropy) {
        return transmitter.sourcePortOf(entropy);
    }
    /** Room for bytes a seam may add before the header when it finishes a packet. */
    private static final int SHIM_BYTES = 4;

    /** The seam's codepoint, with the device's own ECT codepoint where the seam answers ECT(0), the spec's default. */
    private int capable(final int seamEcn) {
        return seamEcn == EcnCodepoint.ECT_0 ? ectCodepoint : seamEcn;
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
        int flags = seam.dataFlags(retransmission);
        if (offset + length == message.length || message.opcode == Opcode.READ_REQUEST) {
            flags |= PacketFlags.ACK_REQUEST; // the last packet of a message: its completion should not wait
        }
        final DataHeaderFlyweight header = encoder.data(buffer, 0, message.opcode)
                .flags(flags)
                .destinationConnectionId(connection.config.peerId() & Serial.MASK)
                .pathId(
                        retransmission
                                ? seam.resendPathId(path.pathId, connection.sendPaths.length, path.healthy)
                                : path.pathId)
                .psn(psn)
                .streamId(message.streamId)
                .payloadLength(length)
                .messageSequenceNumber(
                        message.opcode == Opcode.READ_RESPONSE ? seam.readResponseMsn(message.msn) : message.msn)
                .messageLength(seam.messageLengthField(message.length, length))
                .messageOffset(offset)
                .transmitTimestamp(
                        (retransmission ? seam.resendTimestampNs(nowNs, path.slotSentNs[slot]) : nowNs) & Serial.MASK);
        seam.finishDataHeader(header, flags);
        switch (message.opcode) {
            case WRITE ->
                header.remoteAddress(seam.writeRemoteAddress(message.remoteAddress, offset))
                        .remoteKey(message.remoteKey & Serial.MASK);
            case WRITE_WITH_IMMEDIATE ->
                header.remoteAddress(message.remoteAddress)
                        .remoteKey(message.remoteKey & Serial.MASK)
                        .immediate(message.immediate);
            case SEND -> header.receiveSequenceNumber(seam.sendReceiveSequenceNumber(message.msn, message.matchValue));
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
        final int packetLength =
                seam.finishDataPacket(buffer, encoder.finish(buffer, 0, message.opcode.packetLength(length)));
        transmitter.transmit(
                connection.config.peerNode(), path.entropy, capable(seam.dataEcn()), buffer, 0, packetLength);
        counters.increment(retransmission ? Counter.TX_RETRANSMISSIONS : Counter.TX_DATA_PACKETS);
    }

    /** Sends the ACK of one receive path (spec sections 5.3 and 8) and resets what it reported. */
    void sendAck(final Connection connection, final PathReceiver path, final long rateHintMbps) {
        final AckFlyweight ack = encoder.ack(buffer, 0)
                .destinationConnectionId(connection.config.peerId() & Serial.MASK)
                .pathId(path.pathId)
                .echoedTimestamp(path.lastTimestamp)
                .ceCount(reportsCongestion ? seam.ackCeCount(Math.min(path.ceSinceAck, AckFlyweight.CE_COUNT_MAX)) : 0)
                // Without the congestion profile: CE count 0 and no limit in every ACK (clause 8.2.6).
                .rateHint(reportsCongestion ? rateHintMbps : AckFlyweight.RATE_HINT_NO_LIMIT);
        final PathReceiver[] paths = connection.receivePaths;
        final int reported = seam.ackWindowPathId(path.pathId, paths.length);
        (reported == path.pathId ? path : paths[reported]).window.writeTo(ack);
        seam.finishAck(ack, buffer);
        final int packetLength = encoder.finish(buffer, 0, Opcode.ACK.packetLength(0));
        transmitter.transmit(
                connection.config.peerNode(),
                replyEntropy(connection, path.pathId),
                controlPacketEcn,
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
        transmitNack(
                connection.config.peerNode(),
                replyEntropy(connection, pathId),
                connection.config.peerId() & Serial.MASK,
                seam.nackPathId(pathId),
                psn,
                seam.nackCode(code),
                streamId,
                msn,
                connection.receivePaths[pathId].window.cumulativePsn(),
                retryAfterMicros);
        final PathReceiver rejecting = connection.receivePaths[pathId];
        rejecting.ceSinceAck = seam.ceCountAfterNack(rejecting.ceSinceAck);
    }

    /**
     * NACK UNKNOWN_CONNECTION for a packet that names no connection here (clause 11.2.3): every id field echoes the
     * rejected packet, since the receiver knows none of the sender's own, and the cumulative psn is the rejected
     * PSN, since there is no path state to report. It goes to {@code node}, a peer this endpoint has a connection
     * to, with the rejected packet's source port as entropy.
     */
    void sendUnknownConnectionNack(
            final int node,
            final int entropy,
            final long connectionId,
            final int pathId,
            final long psn,
            final int streamId,
            final long msn) {
        transmitNack(node, entropy, connectionId, pathId, psn, NackCode.UNKNOWN_CONNECTION, streamId, msn, psn, 0);
    }

    /** Encodes one NACK with exactly these fields and sends it to {@code node}. */
    private void transmitNack(
            final int node,
            final int entropy,
            final long connectionId,
            final int pathId,
            final long psn,
            final NackCode code,
            final int streamId,
            final long msn,
            final long cumulativePsn,
            final long retryAfterMicros) {
        encoder.nack(buffer, 0)
                .destinationConnectionId(connectionId)
                .pathId(pathId)
                .psn(psn)
                .code(code)
                .streamId(streamId)
                .messageSequenceNumber(msn)
                .cumulativePsn(cumulativePsn)
                .retryAfter(retryAfterMicros);
        final int packetLength = encoder.finish(buffer, 0, Opcode.NACK.packetLength(0));
        transmitter.transmit(node, entropy, controlPacketEcn, buffer, 0, packetLength);
        counters.increment(Counter.TX_NACKS);
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
        // ECN-capable like data (clause 4.1.7): a congested queue marks the probe instead of dropping
        // it, and the receiver's CE count of the path covers it (clause 8.2.2).
        transmitter.transmit(
                connection.config.peerNode(), path.entropy, capable(seam.probeEcn()), buffer, 0, packetLength);
        counters.increment(Counter.TX_PROBES);
    }
}
