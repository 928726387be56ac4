package org.mrconf.transport;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import org.mrconf.net.EcnCodepoint;
import org.mrconf.net.NanoClock;
import org.mrconf.net.PacketReceiver;
import org.mrconf.net.PacketTransmitter;
import org.mrconf.wire.DecodeStatus;
import org.mrconf.wire.DecodedPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.PacketFlags;

/**
 * The reference MetaRoCE endpoint: a software NIC. Applications register regions, create connections,
 * post work requests and receives, and poll completions; the network side receives packets through
 * {@link #onPacket} and timers through {@link #onWakeup}. Single-threaded: every call comes from the
 * thread that drives it (the simulator or a socket loop).
 */
public final class Endpoint implements PacketReceiver {
    private final EndpointState state;
    private final NanoClock clock;
    private final ReceiveDefects receiveChecks;
    /** The decisions the spec fixes here; see {@link EndpointSeam}. */
    private final EndpointSeam seam;
    /** The receive path's decisions that a probe shares with data; see {@link ReceiveSeam}. */
    private final ReceiveSeam receiveSeam;
    /** Defects WHOLLY_SENT_SOURCE_FAILS_CONNECTION and WHOLLY_SENT_SOURCE_COMPLETES_AT_INVALIDATION. */
    private final EagerInvalidation eagerInvalidation;

    private final UnknownConnections unknownConnections;

    private final DecodedPacket decoded = new DecodedPacket();
    private final CompletionDispatcher completions;
    private final OutboundPackets out;
    private final RateHint rateHint;
    private final AckHandler ackHandler;
    private final InboundData inboundData;
    private final SendScheduler scheduler;
    private final SplittableRandom keyRandom;
    private final ForgottenWork forgottenWork;
    /** Whether {@link #pathStatus} shows each path's smoothed RTT (the control protocol's optional srttNs). */
    private final boolean smoothedRttReported;

    private Runnable wakeupListener = () -> {};
    private long lastNowNs;
    /** Defect MSN_PER_CONNECTION: one MSN counter for every stream. */
    private long sharedMsn;

    /**
     * @param transmitter where packets go
     * @param clock       the time for work posted from outside the driver's calls (virtual in simulation)
     */
    public Endpoint(final EndpointConfig config, final PacketTransmitter transmitter, final NanoClock clock) {
        this.state = new EndpointState(Objects.requireNonNull(config, "config"));
        this.clock = Objects.requireNonNull(clock, "clock");
        this.seam = state.seams.endpoint();
        this.receiveSeam = state.seams.receive();
        this.receiveChecks = new ReceiveDefects(state.seams.decode());
        this.completions =
                new CompletionDispatcher(state.counters, state.seams.completion(), config.flushedReceiveNamesSend());
        this.out = new OutboundPackets(
                Objects.requireNonNull(transmitter, "transmitter"),
                state.counters,
                config.mtuBytes() + (seam.mtuWithoutIpHeader() ? config.ipHeaderBytes() : 0),
                state.seams.outbound(),
                config.offers(Feature.CONGESTION) || seam.congestionReportedUnclaimed(),
                config.choices());
        this.forgottenWork = new ForgottenWork(state.seams.connection());
        this.rateHint = new RateHint(config, state.connectionList);
        this.ackHandler = new AckHandler(state, completions);
        this.inboundData = new InboundData(state, out, completions, rateHint);
        this.scheduler = new SendScheduler(state, out, completions, ackHandler);
        this.unknownConnections = new UnknownConnections(state, out);
        this.eagerInvalidation = new EagerInvalidation(state.seams.connection());
        this.keyRandom = new SplittableRandom(config.entropySeed() ^ 0x5DEECE66DL);
        this.smoothedRttReported = !state.seams.ack().smoothedRttWithheld();
        this.lastNowNs = clock.nanoTime();
    }

    /**
     * Asks to be told when work posted by the application needs the driver to call {@link #onWakeup}
     * (the simulator reschedules the node; a socket loop wakes its selector).
     */
    public void wakeupListener(final Runnable listener) {
        this.wakeupListener = Objects.requireNonNull(listener, "listener");
    }

    public EndpointConfig config() {
        return state.config;
    }

    public Counters counters() {
        return state.counters;
    }

    // ---------------------------------------------------------------- memory

    /** Registers a zero-filled region of {@code length} bytes at virtual address {@code address}. */
    public MemoryRegion registerRegion(final long address, final int length, final int access) {
        return registerRegion(address, ByteBuffer.allocate(length), access);
    }

    /** Registers {@code memory} (its whole capacity) at virtual address {@code address}. */
    public MemoryRegion registerRegion(final long address, final ByteBuffer memory, final int access) {
        final long end = address + memory.capacity(); // 0 for a region that ends exactly at 2^64
        if (memory.capacity() == 0 || (end != 0 && Long.compareUnsigned(end, address) < 0)) {
            throw new IllegalArgumentException("region must be non-empty and must not wrap the address space");
        }
        if (memory.isReadOnly()) {
            throw new IllegalArgumentException("region memory must be writable");
        }
        int key;
        do {
            key = keyRandom.nextInt();
        } while (key == 0 || state.regions.get(key) != null);
        // The region is the whole capacity, whatever the caller's position and limit (absolute puts check limit).
        final MemoryRegion region =
                new MemoryRegion(key, address, memory.duplicate().clear(), access);
        state.regions.put(key, region);
        return region;
    }

    /** Invalidates a region: from now on no packet places into or reads from it (clause 11.1.4). */
    public void invalidateRegion(final int key) {
        final MemoryRegion region = state.regions.remove(key);
        if (region == null) {
            throw new IllegalArgumentException("no region with key 0x" + Integer.toHexString(key));
        }
        region.invalidate();
        if (seam.invalidatedKeyStillValid()) {
            // The remote key table keeps mapping the key to the old memory.
            state.regions.put(key, new MemoryRegion(key, region.address(), region.memory(), region.access()));
        }
        if (eagerInvalidation.any()) {
            eagerInvalidation.onInvalidated(region, state.connectionList, ackHandler, completions);
        }
        if (state.config.choices().readsCompleteAtInvalidation()) {
            completeReadsInto(region);
        }
    }

    /**
     * Freedom F-28 (clause 11.1.7): a READ whose sink is in {@code region} and whose READ_REQUEST has gone out completes
     * LOCAL_PROTECTION_ERROR at the invalidation, not at the first READ_RESPONSE after it; its responses are then
     * stale. (A READ not yet requested keeps the standard path: it completes when its first response arrives.)
     */
    private void completeReadsInto(final MemoryRegion region) {
        for (final Connection connection : java.util.List.copyOf(state.connectionList)) {
            if (connection.failed) {
                continue;
            }
            final java.util.List<SendMessage> reads = new java.util.ArrayList<>();
            connection.forEachSendStream(stream -> {
                for (final SendMessage message : stream.awaitingCompletion) {
                    if (message.localRegion == region
                            && message.opcode == org.mrconf.wire.Opcode.READ_REQUEST
                            && !message.isDone()
                            && message.isFullySegmented()) {
                        reads.add(message);
                    }
                }
            });
            for (final SendMessage read : reads) {
                completions.finishSend(connection, read, WorkCompletionStatus.LOCAL_PROTECTION_ERROR);
            }
        }
    }

    /** The region with this key, or null. */
    public MemoryRegion region(final int key) {
        return state.regions.get(key);
    }

    // ---------------------------------------------------------------- connections

    public void createConnection(final ConnectionConfig config) {
        if (state.connections.get(config.localId()) != null) {
            throw new IllegalArgumentException("connection " + config.localId() + " exists");
        }
        final Connection connection = new Connection(config, state.config, state.budget, now());
        state.connections.put(config.localId(), connection);
        state.connectionList.add(connection);
    }

    /** Destroys a connection; its outstanding work and receives complete with FLUSHED (clause 4.2.2). */
    public void destroyConnection(final int localId) {
        final Connection connection = connection(localId);
        if (!connection.failed && !seam.noFlushOnDestroy()) {
            connection.failed = true;
            forgottenWork.forget(connection);
            completions.flush(connection, WorkCompletionStatus.FLUSHED);
        }
        if (!connection.receivesFlushed && !seam.noFlushOnDestroy()) {
            completions.flushAllReceives(connection);
        }
        connection.releaseState();
        state.connections.remove(localId);
        state.connectionList.remove(connection);
    }

    /** Whether the connection exists and has not failed. */
    public boolean isConnectionUp(final int localId) {
        final Connection connection = state.connections.get(localId);
        return connection != null && !connection.failed;
    }

    /** A snapshot of one path's sender state, for tests and reports. */
    public PathStatus pathStatus(final int localId, final int pathId) {
        final PathSender path = connection(localId).sendPaths[pathId];
        return new PathStatus(
                pathId,
                path.entropy,
                path.healthy,
                path.nextPsn,
                path.oldestUnackedPsn,
                path.unacknowledged,
                path.congestionWindow.window(),
                smoothedRttReported && path.rtt.hasSample() ? path.rtt.srttNs() : -1,
                path.rtt.rtoNs());
    }

    /** Bytes of receive-side state packets made the endpoint allocate, as its budget counts them. */
    long receiveStateBytes() {
        return state.budget.usedBytes();
    }

    /** The sizes of the endpoint's internal state. */
    public EndpointDiagnostics diagnostics() {
        int queued = 0;
        int awaiting = 0;
        int outstanding = 0;
        int reads = 0;
        for (final Connection connection : state.connectionList) {
            queued += connection.sendQueue.size();
            outstanding += connection.unacknowledged;
            reads += connection.readsBySink.size();
            final int[] awaitingHere = new int[1];
            connection.forEachSendStream(stream -> awaitingHere[0] += stream.awaitingCompletion.size());
            awaiting += awaitingHere[0];
        }
        return new EndpointDiagnostics(
                state.connectionList.size(), queued, awaiting, outstanding, reads, completions.pending());
    }

    // ---------------------------------------------------------------- work requests

    /** Posts a receive buffer on a stream; SENDs consume them in RSN order (clause 7.3.1). */
    public void postReceive(
            final int connectionId,
            final int streamId,
            final int localKey,
            final long address,
            final int length,
            final long workRequestId) {
        final Connection connection = usableConnection(connectionId);
        requireStream(connection, streamId);
        final MemoryRegion region =
                localBuffer(localKey, address, length, seam.receiveWithoutLocalWrite() ? 0 : AccessFlags.LOCAL_WRITE);
        final StreamReceiveState stream = connection.receiveStream(streamId);
        if (!stream.canPostReceive()) {
            throw new IllegalStateException(
                    "stream " + streamId + " already has " + state.config.maxPostedReceives() + " receives posted");
        }
        stream.postReceive(workRequestId, region, address, length);
    }

    public void postWrite(
            final int connectionId,
            final int streamId,
            final int localKey,
            final long localAddress,
            final int length,
            final long remoteAddress,
            final int remoteKey,
            final long workRequestId) {
        post(
                connectionId,
                streamId,
                Opcode.WRITE,
                localKey,
                localAddress,
                length,
                remoteAddress,
                remoteKey,
                0,
                workRequestId);
    }

    public void postWriteWithImmediate(
            final int connectionId,
            final int streamId,
            final int localKey,
            final long localAddress,
            final int length,
            final long remoteAddress,
            final int remoteKey,
            final long immediate,
            final long workRequestId) {
        post(
                connectionId,
                streamId,
                Opcode.WRITE_WITH_IMMEDIATE,
                localKey,
                localAddress,
                length,
                remoteAddress,
                remoteKey,
                immediate & Serial.MASK,
                workRequestId);
    }

    public void postSend(
            final int connectionId,
            final int streamId,
            final int localKey,
            final long localAddress,
            final int length,
            final long workRequestId) {
        post(connectionId, streamId, Opcode.SEND, localKey, localAddress, length, 0, 0, 0, workRequestId);
    }

    /** Reads {@code length} bytes at the peer's {@code remoteAddress} into the local buffer. */
    public void postRead(
            final int connectionId,
            final int streamId,
            final int localKey,
            final long localAddress,
            final int length,
            final long remoteAddress,
            final int remoteKey,
            final long workRequestId) {
        post(
                connectionId,
                streamId,
                Opcode.READ_REQUEST,
                localKey,
                localAddress,
                length,
                remoteAddress,
                remoteKey,
                0,
                workRequestId);
    }

    private void post(
            final int connectionId,
            final int streamId,
            final Opcode opcode,
            final int localKey,
            final long localAddress,
            final int length,
            final long remoteAddress,
            final int remoteKey,
            final long immediate,
            final long workRequestId) {
        final Connection connection = usableConnection(connectionId);
        requireStream(connection, streamId);
        final MemoryRegion region = localBuffer(
                localKey, localAddress, length, opcode == Opcode.READ_REQUEST ? AccessFlags.LOCAL_WRITE : 0);
        final StreamSendState stream = connection.sendStream(streamId);
        if (stream.awaitingCompletion.size() >= state.config.maxOutstandingMessages()) {
            throw new IllegalStateException("stream " + streamId + " already has "
                    + state.config.maxOutstandingMessages() + " messages outstanding; poll completions first");
        }
        long matchValue = 0;
        if (opcode == Opcode.SEND) {
            matchValue = stream.nextRsn;
            stream.nextRsn = Serial.add(stream.nextRsn, 1);
        } else if (opcode == Opcode.READ_REQUEST) {
            matchValue = seam.sinkHandleReused() ? lowestFreeSinkHandle(connection) : connection.nextSinkHandle;
            // A handle is never reused on the connection, modulo 2^32 and skipping 0 (clause 7.4.4).
            connection.nextSinkHandle = connection.nextSinkHandle == -1 ? 1 : connection.nextSinkHandle + 1;
        }
        final long msn = seam.msnPerConnection() ? sharedMsn++ & Serial.MASK : stream.nextMsn;
        final SendMessage message = new SendMessage(
                workRequestId,
                opcode,
                streamId,
                msn,
                matchValue,
                region,
                localAddress,
                length,
                remoteAddress,
                remoteKey,
                immediate,
                state.config.maxPayload(opcode.headerLength())
                        - (seam.underfilledSegments() ? 1 : 0)
                        + (seam.mtuWithoutIpHeader() ? state.config.ipHeaderBytes() : 0));
        stream.nextMsn = Serial.add(stream.nextMsn, 1);
        stream.awaitingCompletion.addLast(message);
        connection.sendQueue.addLast(message);
        if (opcode == Opcode.READ_REQUEST) {
            connection.readsBySink.put((int) matchValue, message);
        }
        wakeupListener.run();
    }

    /** The next completion, or null when there is none. */
    public Completion pollCompletion() {
        return completions.poll();
    }

    /** Up to {@code max} completions, oldest first. */
    public List<Completion> pollCompletions(final int max) {
        final List<Completion> polled = new ArrayList<>();
        Completion completion;
        while (polled.size() < max && (completion = completions.poll()) != null) {
            polled.add(completion);
        }
        return polled;
    }

    // ---------------------------------------------------------------- network side

    @Override
    public void onPacket(
            final int srcNode,
            final int srcPort,
            final int ecn,
            final ByteBuffer buffer,
            final int offset,
            final int length,
            final long nowNs) {
        lastNowNs = nowNs;
        if (state.config.ipv6() && seam.ipv6ReceiveDropped()) {
            state.counters.increment(Counter.RX_TRUNCATED);
            return;
        }
        state.counters.increment(Counter.RX_PACKETS);
        final DecodeStatus status = receiveChecks.decode(buffer, offset, length, decoded);
        if (status != DecodeStatus.OK) {
            state.counters.increment(DecodeCounters.of(status));
            return;
        }
        if (decoded.opcode() == Opcode.NACK && decoded.nack().code() == NackCode.UNKNOWN_CONNECTION) {
            // It names the connection by this endpoint's peer's id, the only one the answering side knew (9.1.10).
            final Connection named =
                    unknownConnections.match(srcNode, decoded.commonHeader().destinationConnectionId(), decoded.nack());
            if (named != null) {
                ackHandler.onNack(named, decoded.nack(), nowNs);
                scheduler.pump(named, nowNs);
            }
            return;
        }
        final Connection connection =
                state.connections.get((int) decoded.commonHeader().destinationConnectionId());
        if (connection == null || connection.failed && !seam.failedConnectionStillReceives()) {
            unknownConnections.onPacket(srcNode, srcPort, decoded, nowNs);
            return;
        }
        if (seam.foreignSourceKeepsAlive()) {
            connection.lastHeardNs = nowNs; // the defect: a sign of life taken before the source is checked
        }
        if (srcNode != connection.config.peerNode() && !seam.foreignSourceAccepted()) {
            state.counters.increment(Counter.RX_UNEXPECTED_SOURCE);
            if (seam.foreignSourceNacked()) {
                out.sendNack(connection, 0, decoded.commonHeader().psn(), NackCode.REMOTE_ACCESS, 0, 0, 0);
            }
            return;
        }
        connection.lastHeardNs = nowNs; // any valid packet from the peer proves it is alive (clause 6.7.3)
        switch (decoded.opcode()) {
            case ACK -> {
                ackHandler.onAck(connection, decoded.ack(), nowNs);
                if (seam.ackRequestOnAckAnswered()
                        && decoded.commonHeader().hasFlags(PacketFlags.ACK_REQUEST)
                        && decoded.ack().pathId() < connection.receivePaths.length) {
                    // The defect: the flag is read on an ACK too, which clause 8.1.3 forbids (two such peers
                    // would answer each other's ACKs for ever).
                    out.sendAck(
                            connection, connection.receivePaths[decoded.ack().pathId()], rateHint.currentMbps(nowNs));
                }
            }
            case NACK -> ackHandler.onNack(connection, decoded.nack(), nowNs);
            case PROBE -> onProbe(connection, srcPort, ecn, nowNs);
            default -> {
                // Defect RECEIVED_ECN_IGNORED: a socket that never asked for the TOS byte reads every packet Not-ECT.
                inboundData.onData(
                        connection, srcPort, seam.receivedEcnIgnored() ? EcnCodepoint.NOT_ECT : ecn, decoded, nowNs);
                if (connection.sendQueue.isEmpty()) {
                    return; // data opens no window; only a READ request queues something to send
                }
            }
        }
        scheduler.pump(connection, nowNs);
    }

    /** The sink handle of defect SINK_HANDLE_REUSED: the lowest that no READ in progress holds. */
    private static int lowestFreeSinkHandle(final Connection connection) {
        int handle = 1;
        while (connection.readsBySink.get(handle) != null) {
            handle++;
        }
        return handle;
    }

    private void onProbe(final Connection connection, final int srcPort, final int ecn, final long nowNs) {
        state.counters.increment(Counter.RX_PROBES);
        final int pathId = decoded.probe().pathId();
        if (pathId >= connection.receivePaths.length) {
            state.counters.increment(Counter.RX_INVALID_PATH);
            return;
        }
        final PathReceiver path = connection.receivePaths[pathId];
        if (ecn == EcnCodepoint.CE && !seam.receivedEcnIgnored() && !seam.probeCeNotCounted()) {
            path.ceSinceAck++; // a PROBE's mark counts like a data packet's (clause 8.2.2)
            state.counters.increment(Counter.RX_CE_MARKED);
        }
        if (!seam.probeEchoesDataTimestamp()) {
            path.lastTimestamp = decoded.probe().transmitTimestamp();
        }
        path.heardFrom(srcPort, receiveSeam.ackEntropyFromFirstPacket());
        out.sendAck(connection, path, rateHint.currentMbps(nowNs));
    }

    @Override
    public void onWakeup(final long nowNs) {
        lastNowNs = nowNs;
        final List<Connection> connections = state.connectionList;
        for (int i = 0; i < connections.size(); i++) {
            final Connection connection = connections.get(i);
            scheduler.onTimers(connection, rateHint, nowNs);
            scheduler.pump(connection, nowNs);
        }
    }

    @Override
    public long nextWakeupNs() {
        long earliest = Long.MAX_VALUE;
        final List<Connection> connections = state.connectionList;
        for (int i = 0; i < connections.size(); i++) {
            earliest = Math.min(earliest, scheduler.nextDeadlineNs(connections.get(i), lastNowNs));
        }
        return earliest;
    }

    // ---------------------------------------------------------------- helpers

    private long now() {
        return clock.nanoTime();
    }

    private Connection connection(final int localId) {
        final Connection connection = state.connections.get(localId);
        if (connection == null) {
            throw new IllegalArgumentException("no connection " + localId);
        }
        return connection;
    }

    private Connection usableConnection(final int localId) {
        final Connection connection = connection(localId);
        if (connection.failed) {
            throw new IllegalStateException("connection " + localId + " has failed");
        }
        return connection;
    }

    private static void requireStream(final Connection connection, final int streamId) {
        if (streamId < 0 || !connection.hasStream(streamId)) {
            throw new IllegalArgumentException("connection " + connection.localId() + " has no stream " + streamId);
        }
    }

    private MemoryRegion localBuffer(final int key, final long address, final int length, final int access) {
        final MemoryRegion region = state.regions.get(key);
        if (region == null || !region.isValid()) {
            throw new IllegalArgumentException("no valid region with key 0x" + Integer.toHexString(key));
        }
        if (length < 0 || !region.contains(address, length)) {
            throw new IllegalArgumentException(
                    "local buffer [0x" + Long.toHexString(address) + ", +" + length + ") is outside " + region);
        }
        if (!AccessFlags.allows(region.access(), access)) {
            throw new IllegalArgumentException(region + " lacks access " + access);
        }
        return region;
    }
}
