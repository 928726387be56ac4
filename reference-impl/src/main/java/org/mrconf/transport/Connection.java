package org.mrconf.transport;

import java.util.ArrayDeque;
import org.mrconf.defect.Defect;

/**
 * All state of one connection at one endpoint: its paths below (send and receive halves), its streams
 * above, the messages waiting to be sent, the connection congestion window and the pacer.
 */
final class Connection {
    final ConnectionConfig config;
    final PathSender[] sendPaths;
    final PathReceiver[] receivePaths;
    private final StreamSendState[] sendStreams;
    private final StreamReceiveState[] receiveStreams;
    private final EndpointConfig endpointConfig;

    /** Messages with packets not yet sent once, in posting order (READ responses included). */
    final ArrayDeque<SendMessage> sendQueue = new ArrayDeque<>();
    /** READs in progress, by sink handle. */
    final IntObjectMap<SendMessage> readsBySink = new IntObjectMap<>(16);

    final AimdWindow congestionWindow;
    final Pacer pacer;

    int nextSinkHandle = 1;
    /** PSNs in flight over all paths, for the connection window. */
    int unacknowledged;
    /** Last ACK or NACK from the peer, or when data became outstanding (clause 6.7.3). */
    long lastHeardNs;
    /** Last data packet from the peer, for the receiver's count of active senders (clause 8.2.4). */
    long lastDataReceivedNs = Long.MIN_VALUE / 4; // far past, without overflow in subtraction
    /** Where round-robin tie-breaking between equally free paths starts next (clause 10.2.2). */
    int nextPathCursor;

    boolean failed;
    /** Whether the posted receives were flushed when the connection failed. */
    boolean receivesFlushed;

    Connection(final ConnectionConfig config, final EndpointConfig endpointConfig, final long nowNs) {
        this.config = config;
        this.endpointConfig = endpointConfig;
        this.sendPaths = new PathSender[config.pathCount()];
        this.receivePaths = new PathReceiver[config.pathCount()];
        final boolean sameEntropy = endpointConfig.defects().has(Defect.SAME_ENTROPY_ALL_PATHS);
        final boolean ignoreInitialPsn = endpointConfig.defects().has(Defect.IGNORE_INITIAL_PSN);
        for (int p = 0; p < config.pathCount(); p++) {
            sendPaths[p] = new PathSender(
                    p, config.initialSendPsn(), config.entropyBase() + (sameEntropy ? 0 : p), endpointConfig);
            receivePaths[p] = new PathReceiver(p, ignoreInitialPsn ? 0 : config.initialReceivePsn());
        }
        this.sendStreams = new StreamSendState[config.streamCount()];
        this.receiveStreams = new StreamReceiveState[config.streamCount()];
        this.congestionWindow = new AimdWindow(
                endpointConfig.initialConnectionWindow(),
                endpointConfig.maxConnectionWindow(),
                endpointConfig.decreaseFactor(),
                endpointConfig.defects());
        // One MTU-sized burst at line rate keeps back-to-back packets paced, not bunched.
        this.pacer = new Pacer(endpointConfig.lineRateBitsPerSecond(), 4L * endpointConfig.mtuBytes(), nowNs);
        this.lastHeardNs = nowNs;
    }

    int localId() {
        return config.localId();
    }

    int streamCount() {
        return receiveStreams.length;
    }

    boolean hasStream(final int streamId) {
        return streamId < sendStreams.length;
    }

    /** The sending half of a stream, created at first use. */
    StreamSendState sendStream(final int streamId) {
        StreamSendState stream = sendStreams[streamId];
        if (stream == null) {
            stream = new StreamSendState();
            sendStreams[streamId] = stream;
        }
        return stream;
    }

    /** The receiving half of a stream, created at first use. */
    StreamReceiveState receiveStream(final int streamId) {
        StreamReceiveState stream = receiveStreams[streamId];
        if (stream == null) {
            stream =
                    new StreamReceiveState(endpointConfig.maxPostedReceives(), endpointConfig.maxOutstandingMessages());
            receiveStreams[streamId] = stream;
        }
        return stream;
    }

    /** Whether the stream's receiving half exists (without creating it). */
    boolean hasReceiveStream(final int streamId) {
        return streamId < receiveStreams.length && receiveStreams[streamId] != null;
    }

    /** Every stream's sending half that exists, for flushing. */
    StreamSendState[] sendStreams() {
        return sendStreams;
    }

    /** Whether anything awaits the peer: PSNs not yet acknowledged, or READs whose data has not all arrived. */
    boolean hasOutstanding() {
        return unacknowledged > 0 || readsBySink.size() > 0;
    }
}
