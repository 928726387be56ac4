package org.mrconf.transport;

import java.util.ArrayDeque;

/**
 * All state of one connection at one endpoint: its paths below (send and receive halves), its streams
 * above, the messages waiting to be sent, the connection congestion window and the pacer.
 */
final class Connection {
    final ConnectionConfig config;
    final PathSender[] sendPaths;
    final PathReceiver[] receivePaths;
    /** Stream halves by stream id, created at first use: a connection declaring 65,536 streams pays for those used. */
    private final IntObjectMap<StreamSendState> sendStreams = new IntObjectMap<>(4);

    private final IntObjectMap<StreamReceiveState> receiveStreams = new IntObjectMap<>(4);
    private final EndpointConfig endpointConfig;
    /** This connection's account in the endpoint's state budget: its own reserve, then the shared rest. */
    private final StateBudget.Share budget;

    /** Messages with packets not yet sent once, in posting order (READ responses included). */
    final ArrayDeque<SendMessage> sendQueue = new ArrayDeque<>();
    /** READs in progress, by sink handle. */
    final IntObjectMap<SendMessage> readsBySink = new IntObjectMap<>(16);
    /** Finished READs by sink handle: kept only under defect READ_RESPONSE_AGREEMENT_BEFORE_HANDLE. */
    final IntObjectMap<SendMessage> finishedReadsBySink = new IntObjectMap<>(4);

    final AimdWindow congestionWindow;
    final Pacer pacer;

    int nextSinkHandle = 1;
    /** PSNs in flight over all paths, for the connection window. */
    int unacknowledged;
    /** Last ACK or NACK from the peer, or when data became outstanding (clause 6.7.3). */
    long lastHeardNs;
    /** The {@link #lastDataReceivedNs} of a connection that has received no data: far past, without overflow. */
    static final long NO_DATA_YET = Long.MIN_VALUE / 4;

    /** Last data packet from the peer, for the receiver's count of active senders (clause 8.2.4). */
    long lastDataReceivedNs = NO_DATA_YET;
    /** Where round-robin tie-breaking between equally free paths starts next (clause 10.2.2). */
    int nextPathCursor;

    boolean failed;
    /** When a packet from this connection's peer address for no connection was last answered (clause 11.2.1). */
    long unknownConnectionAnsweredNs = Long.MIN_VALUE / 4; // far past, without overflow in subtraction
    /** Whether the posted receives were flushed when the connection failed. */
    boolean receivesFlushed;

    Connection(
            final ConnectionConfig config,
            final EndpointConfig endpointConfig,
            final StateBudget budget,
            final long nowNs) {
        this.config = config;
        this.endpointConfig = endpointConfig;
        this.budget = budget.openShare();
        this.sendPaths = new PathSender[config.pathCount()];
        // Freedom F-27: the round-robin order of the first new packet may start at any path; the standard at path 0.
        this.nextPathCursor = endpointConfig.choices().roundRobinStartsAtLastPath() ? config.pathCount() - 1 : 0;
        this.receivePaths = new PathReceiver[config.pathCount()];
        final TransportSeams seams = endpointConfig.seams();
        this.seam = seams.connection();
        for (int p = 0; p < config.pathCount(); p++) {
            sendPaths[p] = new PathSender(
                    p, config.initialSendPsn(), seam.pathEntropy(config.entropyBase(), p), endpointConfig);
            receivePaths[p] = new PathReceiver(p, seam.initialReceivePsn(config.initialReceivePsn()));
        }
        // Without the congestion profile the connection window never grows past the first one (clause 10.1.6).
        final SenderSeam sender = seams.sender();
        this.congestionWindow = new AimdWindow(
                endpointConfig.initialConnectionWindow(),
                AimdWindow.largest(
                        endpointConfig,
                        sender,
                        endpointConfig.initialConnectionWindow(),
                        seam.maxConnectionWindow(
                                endpointConfig.maxConnectionWindow(), EndpointConfig.UNBOUNDED_CONNECTION_WINDOW)),
                endpointConfig.decreaseFactor(),
                sender);
        // One MTU-sized burst at line rate keeps back-to-back packets paced, not bunched.
        this.pacer = new Pacer(
                endpointConfig.lineRateBitsPerSecond(),
                4L * endpointConfig.mtuBytes(),
                nowNs,
                endpointConfig.choices().pacingTickNs());
        this.lastHeardNs = nowNs;
    }

    int localId() {
        return config.localId();
    }

    int streamCount() {
        return config.streamCount();
    }

    /** The sending halves of the streams in use, for a defect that treats them as one queue. */
    java.util.List<StreamSendState> sendStreams() {
        final java.util.List<StreamSendState> streams = new java.util.ArrayList<>();
        sendStreams.forEachValue(streams::add);
        return streams;
    }

    boolean hasStream(final int streamId) {
        return streamId >= 0 && streamId < config.streamCount();
    }

    /** The sending half of a stream, created at first use (by the application's posts). */
    StreamSendState sendStream(final int streamId) {
        StreamSendState stream = sendStreams.get(streamId);
        if (stream == null) {
            stream = new StreamSendState();
            sendStreams.put(streamId, stream);
        }
        return stream;
    }

    /** The sending half of a stream if it exists, else null: what a packet naming a stream may look at. */
    StreamSendState existingSendStream(final int streamId) {
        return sendStreams.get(streamId);
    }

    /** The receiving half of a stream, created at first use by the application (charged, never refused). */
    StreamReceiveState receiveStream(final int streamId) {
        StreamReceiveState stream = receiveStreams.get(streamId);
        if (stream == null) {
            final long charge = StreamReceiveState.initialCharge(endpointConfig.maxOutstandingMessages());
            budget.chargeLongLived(charge);
            stream = newReceiveStream(streamId, charge);
        }
        return stream;
    }

    /**
     * The receiving half of a stream for a packet: created at first use if this connection's reserve or the rest of
     * the endpoint's state budget allows, else null (the caller drops the packet and counts it).
     */
    StreamReceiveState receiveStreamForPacket(final int streamId) {
        final StreamReceiveState stream = receiveStreams.get(streamId);
        if (stream != null) {
            return stream;
        }
        final long charge = StreamReceiveState.initialCharge(endpointConfig.maxOutstandingMessages());
        return budget.tryChargeLongLived(charge) ? newReceiveStream(streamId, charge) : null;
    }

    private StreamReceiveState newReceiveStream(final int streamId, final long charge) {
        final StreamReceiveState stream = new StreamReceiveState(
                endpointConfig.maxPostedReceives(),
                endpointConfig.maxOutstandingMessages(),
                budget,
                seam.receiveRingGrownWithStaleIndex(),
                seam.messageRingGrownWithStaleIndex());
        stream.charged(charge);
        receiveStreams.put(streamId, stream);
        return stream;
    }

    /** Calls {@code action} with each existing receiving half and its stream id. */
    void forEachReceiveStream(final IntObjectMap.EntryConsumer<StreamReceiveState> action) {
        receiveStreams.forEachEntry(action);
    }

    /** Every existing sending half, for flushing and diagnostics. */
    void forEachSendStream(final java.util.function.Consumer<StreamSendState> action) {
        sendStreams.forEachValue(action);
    }

    /** Number of receiving halves created, for tests. */
    int receiveStreamCount() {
        return receiveStreams.size();
    }

    /** Returns every byte this connection's streams charged to the endpoint's budget, and its reserve. */
    void releaseState() {
        receiveStreams.forEachValue(StreamReceiveState::release);
        budget.close();
    }

    /** Whether anything awaits the peer: PSNs not yet acknowledged, or READs whose data has not all arrived. */
    boolean hasOutstanding() {
        return unacknowledged > 0 || readsBySink.size() > 0 && seam.readWaitKeepsTimerRunning();
    }

    /** The decisions the spec fixes about this connection's state. */
    private final ConnectionSeam seam;
}
