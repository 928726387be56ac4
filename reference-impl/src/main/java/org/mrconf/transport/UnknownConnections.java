package org.mrconf.transport;

import org.mrconf.wire.DecodedPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.NackFlyweight;

/**
 * Packets that name no connection of this endpoint: answering them with NACK UNKNOWN_CONNECTION (clauses 11.2.1 and
 * 11.2.3), and matching the NACK UNKNOWN_CONNECTION this endpoint's own packets get back (clause 9.1.10). Both sides
 * name the connection by the ids the sender puts in its packets, because the answering side knows no other.
 */
final class UnknownConnections {
    /** At most one answer per source address per millisecond (clause 11.2.1). */
    static final long ANSWER_INTERVAL_NS = 1_000_000;

    private final EndpointState state;
    private final OutboundPackets out;
    /** How NACKs UNKNOWN_CONNECTION are answered and matched. */
    private final ConnectionSeam seam;
    /** The least time between two answers to one address. */
    private final long answerIntervalNs;

    UnknownConnections(final EndpointState state, final OutboundPackets out) {
        this.state = state;
        this.out = out;
        this.seam = state.seams.connection();
        this.answerIntervalNs = seam.unknownConnectionAnswerIntervalNs(ANSWER_INTERVAL_NS);
    }

    /**
     * A packet from {@code srcNode} for no connection: counted, and a data packet or READ_REQUEST answered when this
     * endpoint has a connection to that address (the only peer port it can know, clause 4.2.3) and the address has
     * had no answer in the last millisecond.
     */
    void onPacket(final int srcNode, final int srcPort, final DecodedPacket decoded, final long nowNs) {
        state.counters.increment(Counter.RX_UNKNOWN_CONNECTION);
        if (!decoded.opcode().hasDataHeader()) {
            return; // only data packets and READ_REQUESTs are ever NACKed (clause 9.1.1)
        }
        if (!state.config.choices().answersUnknownConnections()) {
            return; // clause 11.2.3 is a MAY this device does not implement (freedom F-29)
        }
        final Connection via = anyConnectionTo(srcNode);
        if (via == null) {
            return;
        }
        if (nowNs - via.unknownConnectionAnsweredNs < answerIntervalNs) {
            return;
        }
        via.unknownConnectionAnsweredNs = nowNs;
        final long psn = decoded.commonHeader().psn();
        if (!seam.unknownConnectionNackEchoesIds()) {
            out.sendNack(via, 0, psn, NackCode.UNKNOWN_CONNECTION, 0, 0, 0); // its own view of the peer
            return;
        }
        out.sendUnknownConnectionNack(
                srcNode,
                srcPort,
                decoded.commonHeader().destinationConnectionId(),
                decoded.commonHeader().pathId(),
                psn,
                decoded.dataHeader().streamId(),
                decoded.dataHeader().messageSequenceNumber());
    }

    /**
     * The live connection a NACK UNKNOWN_CONNECTION from {@code srcNode} names (clause 9.1.10): the one to that
     * address whose peer connection id the NACK echoes, with the NACK's PSN outstanding on its path; or null, when
     * the NACK is dropped and counted.
     */
    Connection match(final int srcNode, final long destinationConnectionId, final NackFlyweight nack) {
        if (seam.unknownConnectionNackMatchedByLocalId()) {
            final Connection connection = state.connections.get((int) destinationConnectionId);
            return connection == null || connection.failed ? null : connection; // as any other packet
        }
        for (final Connection connection : state.connectionList) {
            if (connection.failed
                    || connection.config.peerNode() != srcNode
                    || (connection.config.peerId() & Serial.MASK) != destinationConnectionId) {
                continue;
            }
            final int pathId = nack.pathId();
            if (!seam.unknownConnectionNackNeedsOutstandingPsn()
                    || pathId < connection.sendPaths.length && connection.sendPaths[pathId].isOutstanding(nack.psn())) {
                return connection;
            }
        }
        state.counters.increment(Counter.RX_UNKNOWN_CONNECTION);
        return null;
    }

    private Connection anyConnectionTo(final int node) {
        for (final Connection connection : state.connectionList) {
            if (connection.config.peerNode() == node) {
                return connection; // the first, so that one address has one rate limit
            }
        }
        return null;
    }
}
