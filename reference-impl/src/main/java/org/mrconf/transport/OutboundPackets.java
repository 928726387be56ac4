package org.mrconf.transport;

import java.nio.ByteBuffer;
import org.mrconf.defect.Defect;
import org.mrconf.defect.Defects;
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
    // Self-validation defects (org.mrconf.defect.Defect), read once.
    private final boolean probeNotEct;
    private final boolean notEctOnData;
    private final boolean nonzeroReservedOnSend;
    private final boolean sendMinorVersion;
    private final boolean messageLengthPerPacket;
    private final boolean perPacketRemoteAddress;
    private final boolean rsnFromMsn;
    private final boolean readResponseMsnZero;
    private final boolean crcLittleEndian;
    private final boolean shimBeforeHeader;
    private final boolean ackLastReceivedPsn;
    private final boolean sackMsbFirst;
    private final boolean nackOnPathZero;

    private final boolean retransmitWithoutFlag;
    private final boolean retransmitOnOtherPath;
    private final boolean unhealthyResendsElsewhere;
    private final boolean retransmitStaleTimestamp;
    private final boolean sackFirstWordOnly;

    /** Self-validation defects (see {@link org.mrconf.defect.Defect}): a wrong entry in the code table each. */
    private final boolean receiverNotReadyWrongCode;

    private final boolean messageTooLongWrongCode;
    private final boolean invalidRequestWrongCode;
    private final boolean outOfWindowWrongCode;
    private final boolean boundsWrongCode;
    private final boolean ackReportsAnotherPath;
    private final boolean ceCountNeverSet;
    private final boolean reportsCongestion;
    private final boolean nackResetsCeCount;

    OutboundPackets(final PacketTransmitter transmitter, final Counters counters, final int mtuBytes) {
        this(transmitter, counters, mtuBytes, org.mrconf.defect.Defects.NONE, true);
    }

    /**
     * @param reportsCongestion whether ACKs carry the CE count and rate hint; false for an endpoint without the
     *                          congestion profile, whose ACKs carry 0 and no limit (clause 8.2.6)
     */
    OutboundPackets(
            final PacketTransmitter transmitter,
            final Counters counters,
            final int mtuBytes,
            final Defects defects,
            final boolean reportsCongestion) {
        this.reportsCongestion = reportsCongestion;
        this.retransmitWithoutFlag = defects.has(Defect.RETRANSMIT_WITHOUT_FLAG);
        this.retransmitOnOtherPath = defects.has(Defect.RETRANSMIT_ON_OTHER_PATH);
        this.unhealthyResendsElsewhere = defects.has(Defect.UNHEALTHY_PATH_RESENDS_ELSEWHERE);
        this.retransmitStaleTimestamp = defects.has(Defect.RETRANSMIT_STALE_TIMESTAMP);
        this.sackFirstWordOnly = defects.has(Defect.SACK_FIRST_WORD_ONLY);
        this.transmitter = transmitter;
        this.counters = counters;
        this.buffer = ByteBuffer.allocateDirect(Math.max(mtuBytes, 256) + SHIM_BYTES);
        this.notEctOnData = defects.has(Defect.NOT_ECT_ON_DATA);
        this.probeNotEct = defects.has(Defect.PROBE_NOT_ECT);
        this.nonzeroReservedOnSend = defects.has(Defect.NONZERO_RESERVED_ON_SEND);
        this.sendMinorVersion = defects.has(Defect.SEND_MINOR_VERSION);
        this.messageLengthPerPacket = defects.has(Defect.MESSAGE_LENGTH_PER_PACKET);
        this.perPacketRemoteAddress = defects.has(Defect.PER_PACKET_REMOTE_ADDRESS);
        this.rsnFromMsn = defects.has(Defect.RSN_FROM_MSN);
        this.readResponseMsnZero = defects.has(Defect.READ_RESPONSE_MSN_ZERO);
        this.crcLittleEndian = defects.has(Defect.CRC_LITTLE_ENDIAN);
        this.shimBeforeHeader = defects.has(Defect.SHIM_BEFORE_HEADER);
        this.ackLastReceivedPsn = defects.has(Defect.ACK_LAST_RECEIVED_PSN);
        this.sackMsbFirst = defects.has(Defect.SACK_MSB_FIRST);
        this.nackOnPathZero = defects.has(Defect.NACK_ON_PATH_ZERO);
        this.receiverNotReadyWrongCode = defects.has(org.mrconf.defect.Defect.RECEIVER_NOT_READY_WRONG_CODE);
        this.messageTooLongWrongCode = defects.has(org.mrconf.defect.Defect.MESSAGE_TOO_LONG_WRONG_CODE);
        this.invalidRequestWrongCode = defects.has(org.mrconf.defect.Defect.INVALID_REQUEST_WRONG_CODE);
        this.outOfWindowWrongCode = defects.has(org.mrconf.defect.Defect.OUT_OF_WINDOW_WRONG_CODE);
        this.boundsWrongCode = defects.has(org.mrconf.defect.Defect.BOUNDS_WRONG_CODE);
        this.ackReportsAnotherPath = defects.has(org.mrconf.defect.Defect.ACK_REPORTS_ANOTHER_PATH);
        this.ceCountNeverSet = defects.has(org.mrconf.defect.Defect.CE_COUNT_NEVER_SET);
        this.nackResetsCeCount = defects.has(org.mrconf.defect.Defect.NACK_RESETS_CE_COUNT);
    }

    /** The UDP source port that packets with this entropy leave from (the transmitter may map entropy). */
    int sourcePortOf(final int entropy) {
        return transmitter.sourcePortOf(entropy);
    }
    /** Room for the shim of {@link Defect#SHIM_BEFORE_HEADER}. */
    private static final int SHIM_BYTES = 4;

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
        int flags = retransmission && !retransmitWithoutFlag ? PacketFlags.RETRANSMISSION : PacketFlags.NONE;
        if (offset + length == message.length || message.opcode == Opcode.READ_REQUEST) {
            flags |= PacketFlags.ACK_REQUEST; // the last packet of a message: its completion should not wait
        }
        final DataHeaderFlyweight header = encoder.data(buffer, 0, message.opcode)
                .flags(flags)
                .destinationConnectionId(connection.config.peerId() & Serial.MASK)
                .pathId(
                        retransmission && (retransmitOnOtherPath || unhealthyResendsElsewhere && !path.healthy)
                                ? (path.pathId + 1) % connection.sendPaths.length
                                : path.pathId)
                .psn(psn)
                .streamId(message.streamId)
                .payloadLength(length)
                .messageSequenceNumber(message.msn)
                .messageLength(messageLengthPerPacket ? length : message.length)
                .messageOffset(offset)
                .transmitTimestamp(
                        (retransmission && retransmitStaleTimestamp ? path.slotSentNs[slot] : nowNs) & Serial.MASK);
        if (nonzeroReservedOnSend) {
            header.reserved1(0x5A).flags(flags | 0x8000);
        }
        if (sendMinorVersion) {
            header.version(0x11);
        }
        switch (message.opcode) {
            case WRITE ->
                header.remoteAddress(message.remoteAddress + (perPacketRemoteAddress ? offset : 0))
                        .remoteKey(message.remoteKey & Serial.MASK);
            case WRITE_WITH_IMMEDIATE ->
                header.remoteAddress(message.remoteAddress)
                        .remoteKey(message.remoteKey & Serial.MASK)
                        .immediate(message.immediate);
            case SEND -> header.receiveSequenceNumber(rsnFromMsn ? message.msn : message.matchValue);
            case READ_REQUEST ->
                header.remoteAddress(message.remoteAddress)
                        .remoteKey(message.remoteKey & Serial.MASK)
                        .sinkHandle(message.matchValue);
            case READ_RESPONSE -> {
                header.sinkHandle(message.matchValue);
                if (readResponseMsnZero) {
                    header.messageSequenceNumber(0);
                }
            }
            default -> throw new IllegalStateException("not a data opcode: " + message.opcode);
        }
        if (length > 0) {
            final MemoryRegion source = message.localRegion;
            buffer.put(header.payloadIndex(), source.memory(), source.indexOf(message.localAddress + offset), length);
        }
        int packetLength = encoder.finish(buffer, 0, message.opcode.packetLength(length));
        if (crcLittleEndian) {
            final int trailer = packetLength - 4;
            for (int i = 0; i < 2; i++) {
                final byte b = buffer.get(trailer + i);
                buffer.put(trailer + i, buffer.get(trailer + 3 - i));
                buffer.put(trailer + 3 - i, b);
            }
        }
        if (shimBeforeHeader) {
            final byte[] packet = new byte[packetLength];
            buffer.get(0, packet);
            buffer.putInt(0, 0).put(SHIM_BYTES, packet);
            packetLength += SHIM_BYTES;
        }
        transmitter.transmit(
                connection.config.peerNode(),
                path.entropy,
                notEctOnData ? EcnCodepoint.NOT_ECT : EcnCodepoint.ECT_0,
                buffer,
                0,
                packetLength);
        counters.increment(retransmission ? Counter.TX_RETRANSMISSIONS : Counter.TX_DATA_PACKETS);
    }

    /** Sends the ACK of one receive path (spec sections 5.3 and 8) and resets what it reported. */
    void sendAck(final Connection connection, final PathReceiver path, final long rateHintMbps) {
        final AckFlyweight ack = encoder.ack(buffer, 0)
                .destinationConnectionId(connection.config.peerId() & Serial.MASK)
                .pathId(path.pathId)
                .echoedTimestamp(path.lastTimestamp)
                .ceCount(
                        ceCountNeverSet || !reportsCongestion
                                ? 0
                                : Math.min(path.ceSinceAck, AckFlyweight.CE_COUNT_MAX))
                // Without the congestion profile: CE count 0 and no limit in every ACK (clause 8.2.6).
                .rateHint(reportsCongestion ? rateHintMbps : AckFlyweight.RATE_HINT_NO_LIMIT);
        final PathReceiver[] paths = connection.receivePaths;
        (ackReportsAnotherPath ? paths[(path.pathId + 1) % paths.length] : path).window.writeTo(ack);
        if (sackFirstWordOnly) {
            for (int word = 1; word < AckFlyweight.SACK_WORDS; word++) {
                ack.sackWord(word, 0);
            }
        }
        if (ackLastReceivedPsn) {
            ack.psn((ack.psn() - 1) & Serial.MASK);
        }
        if (sackMsbFirst) {
            for (int i = 0; i < 32; i++) {
                final int index = AckFlyweight.SACK_BITMAP_OFFSET + i;
                buffer.put(index, (byte) (Integer.reverse(buffer.get(index) & 0xFF) >>> 24));
            }
        }
        final int packetLength = encoder.finish(buffer, 0, Opcode.ACK.packetLength(0));
        transmitter.transmit(
                connection.config.peerNode(),
                replyEntropy(connection, path.pathId),
                EcnCodepoint.NOT_ECT,
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
                nackOnPathZero ? 0 : pathId,
                psn,
                onTheWire(code),
                streamId,
                msn,
                connection.receivePaths[pathId].window.cumulativePsn(),
                retryAfterMicros);
        if (nackResetsCeCount) {
            connection.receivePaths[pathId].ceSinceAck = 0; // the defect: a NACK carries no CE count (clause 8.2.2)
        }
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
        transmitter.transmit(node, entropy, EcnCodepoint.NOT_ECT, buffer, 0, packetLength);
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
        // ECN-capable like data (clause 4.1.7): a congested queue marks the probe instead of dropping
        // it, and the receiver's CE count of the path covers it (clause 8.2.2).
        transmitter.transmit(
                connection.config.peerNode(),
                path.entropy,
                notEctOnData || probeNotEct ? EcnCodepoint.NOT_ECT : EcnCodepoint.ECT_0,
                buffer,
                0,
                packetLength);
        counters.increment(Counter.TX_PROBES);
    }
}
