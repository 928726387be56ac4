package org.mrconf.peer;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.apiguardian.api.API;
import org.mrconf.dut.ConnectionSpec;
import org.mrconf.pcap.Ecn;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.Packet;
import org.mrconf.wire.WireConstants;

/**
 * Just enough of a MetaRoCE endpoint for a test to act as a correct peer in simple cases: it keeps the tester's
 * side of one connection (next PSN per path, next MSN and RSN per stream, receive state per path), sends whole
 * messages cut at the MTU as clause 4.1.9 requires over the paths the test picks, and can acknowledge what the
 * DUT sends. It has no retransmission or congestion control: a test that impairs the peer's packets resends them
 * itself ({@link #resend}).
 *
 * <p>Ids and PSNs are from the tester's point of view: packets to the DUT carry the DUT's connection id
 * ({@link ConnectionSpec#localId()}) and start at {@link ConnectionSpec#initialReceivePsn()}; packets from the DUT
 * carry the tester's id ({@link ConnectionSpec#peerId()}) and start at {@link ConnectionSpec#initialSendPsn()}.
 * Not thread-safe except the auto-ACK, which runs on the recorder thread under this object's lock.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class PeerConnection {
    /** IPv4 and IPv6 header lengths and the UDP header, for the segment size of clause 4.1.9. */
    private static final int IPV4_HEADER = 20;

    private static final int IPV6_HEADER = 40;
    private static final int UDP_HEADER = 8;

    /** One packet of a message the peer sent. */
    public record Segment(int path, long psn, long messageOffset, int length, SentPacket sent) {}

    private final PeerSender sender;
    private final Recorder recorder;
    private final ConnectionSpec spec;
    private final int mtu;
    private final long[] nextPsn;
    private final PathReceiveState[] receive;
    private final Map<Integer, Long> nextMsn = new HashMap<>();
    private final Map<Integer, Long> nextRsn = new HashMap<>();
    private final Map<Long, Segment> sentByPathPsn = new HashMap<>();
    private Consumer<ReceivedPacket> autoAck;
    private int ackSourcePort;
    private long ackRateHint = -1;
    private long ackEchoAgeNs;
    /** Per path, an echo age that overrides {@link #ackEchoAgeNs}, or -1 for none. */
    private final long[] pathEchoAgeNs;

    private boolean lateAckAfterEach;
    /** Per path, the last {@link #LATE_ACK_LAG} distinct cumulative PSNs of auto-ACKs, oldest first. */
    private final long[][] recentCumulatives;

    private final int[] recentCount;

    /**
     * How many distinct cumulative PSNs a late auto-ACK lags: it stays behind the DUT's oldest unacknowledged PSN
     * unless the link lost every auto-ACK that carried the newer {@code LATE_ACK_LAG - 1} of them.
     */
    public static final int LATE_ACK_LAG = 4;

    /**
     * @param spec the connection as the DUT was told to create it
     * @param mtu  the connection's IP MTU
     */
    public PeerConnection(PeerSender sender, Recorder recorder, ConnectionSpec spec, int mtu) {
        this.sender = Objects.requireNonNull(sender, "sender");
        this.recorder = Objects.requireNonNull(recorder, "recorder");
        this.spec = Objects.requireNonNull(spec, "spec");
        this.mtu = mtu;
        this.nextPsn = new long[spec.paths()];
        this.receive = new PathReceiveState[spec.paths()];
        this.recentCumulatives = new long[spec.paths()][LATE_ACK_LAG];
        this.pathEchoAgeNs = new long[spec.paths()];
        java.util.Arrays.fill(pathEchoAgeNs, -1);
        this.recentCount = new int[spec.paths()];
        for (int path = 0; path < spec.paths(); path++) {
            nextPsn[path] = spec.initialReceivePsn();
            receive[path] = new PathReceiveState(spec.initialSendPsn());
        }
        this.ackSourcePort = sender.link().testerPort() > 0 ? sender.link().testerPort() : 49_152;
        if (maxPayload(Opcode.WRITE_WITH_IMMEDIATE) < 1) {
            throw new IllegalArgumentException("MTU " + mtu + " leaves no room for payload");
        }
    }

    public ConnectionSpec spec() {
        return spec;
    }

    /** The DUT's connection id, which packets to the DUT carry. */
    public long dutConnectionId() {
        return spec.localId();
    }

    /** The tester's connection id, which packets from the DUT carry. */
    public long testerConnectionId() {
        return spec.peerId();
    }

    /** The largest payload of one {@code opcode} packet within the MTU (clause 4.1.9). */
    public int maxPayload(Opcode opcode) {
        int ip = spec.peerAddress() instanceof Inet6Address ? IPV6_HEADER : IPV4_HEADER;
        return Math.min(
                WireConstants.MAX_PAYLOAD_LENGTH,
                mtu - ip - UDP_HEADER - opcode.headerLength() - WireConstants.TRAILER_LENGTH);
    }

    /** The PSN the next new packet on {@code path} will carry. */
    public synchronized long nextPsn(int path) {
        return nextPsn[path];
    }

    /** Moves a path's next PSN, e.g. just before the wrap or past the receive window. */
    public synchronized void setNextPsn(int path, long psn) {
        nextPsn[path] = psn & Psn.MASK;
    }

    public synchronized long nextMsn(int stream) {
        return nextMsn.getOrDefault(stream, 0L);
    }

    /** Takes the stream's next MSN for a message the test builds itself, packet by packet. */
    public synchronized long claimMsn(int stream) {
        return takeMsn(stream);
    }

    /** Takes the stream's next RSN for a SEND the test builds itself. */
    public synchronized long claimRsn(int stream) {
        long rsn = nextRsn.getOrDefault(stream, 0L);
        nextRsn.put(stream, Psn.add(rsn, 1));
        return rsn;
    }

    /**
     * A builder for the next packet on {@code path}: connection, path and next PSN filled in, nothing consumed.
     * Send it with {@link #sendNew} to consume the PSN.
     */
    public synchronized PacketBuilder packet(Opcode opcode, int path) {
        return PacketBuilder.of(opcode).connection(spec.localId()).path(path).psn(nextPsn[path]);
    }

    /** Sends a packet built by the test as the next new packet of its path, consuming that path's PSN. */
    public synchronized Segment sendNew(PacketBuilder builder, int path) throws IOException {
        return sendNew(builder, path, bytes -> sender.send(bytes));
    }

    /** {@link #sendNew} from an explicit UDP source port (the entropy, clause 4.1.4) with the default ECN. */
    public synchronized Segment sendNewFrom(PacketBuilder builder, int path, int sourcePort) throws IOException {
        return sendNew(builder, path, bytes -> sender.send(bytes, sourcePort, sender.defaultEcn()));
    }

    /** How {@link #sendNew} hands the built bytes to the sender. */
    private interface Transmit {
        SentPacket send(byte[] bytes) throws IOException;
    }

    private Segment sendNew(PacketBuilder builder, int path, Transmit transmit) throws IOException {
        long psn = nextPsn[path];
        byte[] bytes = builder.build();
        SentPacket sent = transmit.send(bytes);
        nextPsn[path] = Psn.add(psn, 1);
        Segment segment = new Segment(path, psn, 0, bytes.length, sent);
        sentByPathPsn.put(key(path, psn), segment);
        return segment;
    }

    /** A WRITE of {@code data} to the DUT's region, segmented over {@code paths} in turn. */
    public List<Segment> write(int stream, long remoteAddress, long remoteKey, byte[] data, int... paths)
            throws IOException {
        return message(
                Opcode.WRITE,
                stream,
                data,
                paths,
                b -> b.remoteAddress(remoteAddress).remoteKey(remoteKey));
    }

    public List<Segment> writeWithImmediate(
            int stream, long remoteAddress, long remoteKey, long immediate, byte[] data, int... paths)
            throws IOException {
        return message(
                Opcode.WRITE_WITH_IMMEDIATE,
                stream,
                data,
                paths,
                b -> b.remoteAddress(remoteAddress).remoteKey(remoteKey).immediate(immediate));
    }

    /** Consumes the stream's next RSN, for a SEND the test builds itself. */
    public synchronized long takeRsn(int stream) {
        long rsn = nextRsn.getOrDefault(stream, 0L);
        nextRsn.put(stream, Psn.add(rsn, 1));
        return rsn;
    }

    /** A SEND of {@code data}, with the stream's next RSN. */
    public List<Segment> sendMessage(int stream, byte[] data, int... paths) throws IOException {
        long rsn;
        synchronized (this) {
            rsn = nextRsn.getOrDefault(stream, 0L);
            nextRsn.put(stream, Psn.add(rsn, 1));
        }
        return message(Opcode.SEND, stream, data, paths, b -> b.rsn(rsn));
    }

    /** A READ_REQUEST for {@code length} bytes of the DUT's region, on {@code path}. */
    public synchronized Segment readRequest(
            int stream, long remoteAddress, long remoteKey, long length, long sinkHandle, int path) throws IOException {
        long msn = takeMsn(stream);
        return sendNew(
                packet(Opcode.READ_REQUEST, path).stream(stream)
                        .msn(msn)
                        .messageLength(length)
                        .remoteAddress(remoteAddress)
                        .remoteKey(remoteKey)
                        .sinkHandle(sinkHandle)
                        .ackRequest()
                        .transmitTimestamp(timestamp()),
                path);
    }

    private synchronized List<Segment> message(
            Opcode opcode, int stream, byte[] data, int[] paths, Consumer<PacketBuilder> extension) throws IOException {
        if (paths.length == 0) {
            throw new IllegalArgumentException("name at least one path");
        }
        long msn = takeMsn(stream);
        int segmentSize = maxPayload(opcode);
        int count = Math.max(1, (data.length + segmentSize - 1) / segmentSize);
        List<Segment> segments = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int offset = i * segmentSize;
            int length = Math.min(segmentSize, data.length - offset);
            int path = paths[i % paths.length];
            byte[] chunk = Arrays.copyOfRange(data, offset, offset + length);
            PacketBuilder b = packet(opcode, path).stream(stream)
                    .msn(msn)
                    .messageLength(data.length)
                    .messageOffset(offset)
                    .payload(chunk)
                    .transmitTimestamp(timestamp());
            extension.accept(b);
            if (i == count - 1) {
                // The last packet asks for an ACK so completion does not wait for coalescing (clause 8.1.3).
                b.ackRequest();
            }
            Segment s = sendNew(b, path);
            segments.add(new Segment(path, s.psn(), offset, length, s.sent()));
            sentByPathPsn.put(key(path, s.psn()), segments.get(segments.size() - 1));
        }
        return segments;
    }

    /** Sends a segment again: same fields, RETRANSMISSION flag, fresh timestamp (clause 6.4.2). */
    public synchronized SentPacket resend(Segment segment) throws IOException {
        Packet original = Packet.fromBytes(segment.sent().bytes());
        PacketBuilder b = PacketBuilder.from(original).retransmission();
        if (original.opcode().hasDataHeader() || original.opcode() == Opcode.PROBE) {
            b.transmitTimestamp(timestamp());
        }
        return sender.send(b.build());
    }

    /** The segment sent on {@code path} with {@code psn}, if this connection sent it. */
    public synchronized Optional<Segment> sent(int path, long psn) {
        return Optional.ofNullable(sentByPathPsn.get(key(path, psn)));
    }

    /** Consumes the stream's next MSN, for a message the test builds itself (e.g. to send its packets out of order). */
    public synchronized long takeMsn(int stream) {
        long msn = nextMsn.getOrDefault(stream, 0L);
        nextMsn.put(stream, Psn.add(msn, 1));
        return msn;
    }

    private long timestamp() {
        return sender.link().nowNs() & Psn.MASK;
    }

    private static long key(int path, long psn) {
        return ((long) path << 32) | (psn & Psn.MASK);
    }

    // Receiving from the DUT.

    /**
     * Records a data packet or READ_REQUEST the DUT sent on this connection in the path's receive state.
     *
     * @return what the PSN was, or {@code null} if the packet is not one of this connection's data packets
     */
    public synchronized PathReceiveState.Arrival onReceived(ReceivedPacket received) {
        DataPacket data = received.data().orElse(null);
        if (data == null
                || data.header().destinationConnectionId() != spec.peerId()
                || data.header().pathId() >= receive.length) {
            return null;
        }
        return receive[data.header().pathId()].onPsn(data.header().psn());
    }

    public synchronized PathReceiveState receiveState(int path) {
        return receive[path];
    }

    /** A correct ACK of {@code path} from the current receive state, echoing {@code echoedTimestamp}. */
    public synchronized PacketBuilder ackFor(int path, long echoedTimestamp) {
        PathReceiveState state = receive[path];
        return PacketBuilder.ack()
                .connection(spec.localId())
                .path(path)
                .cumulativePsn(state.cumulativePsn())
                .sackBits(state.sackBits())
                .echoedTimestamp(echoedTimestamp);
    }

    /**
     * Acknowledges every data packet and READ_REQUEST the DUT sends on this connection at once, one ACK per
     * packet, from the tester's MetaRoCE port and without impairment: a correct if chatty receiver (coalescing is
     * optional, clause 8.1.4). Call with {@code false} to stop.
     */
    public synchronized void autoAck(boolean on) {
        if (on && autoAck == null) {
            autoAck = this::acknowledge;
            recorder.addListener(autoAck);
        } else if (!on && autoAck != null) {
            recorder.removeListener(autoAck);
            autoAck = null;
        }
    }

    /** The rate hint, in Mbit/s, that auto-ACKs carry (clause 8.2.3); by default none (0xFFFFFFFF, no limit). */
    public synchronized void ackRateHint(long mbps) {
        this.ackRateHint = mbps;
    }

    /**
     * How much older than the acknowledged packet's own timestamp the auto-ACKs' echoed timestamp is (0 by default):
     * the DUT's RTT samples (clause 6.6.1), and with them its smoothed RTT and timeouts, come out that much longer
     * without the tester waiting.
     */
    public synchronized void ackEchoAge(java.time.Duration age) {
        this.ackEchoAgeNs = age.toNanos();
        java.util.Arrays.fill(pathEchoAgeNs, -1);
    }

    /**
     * As {@link #ackEchoAge(java.time.Duration)} for the auto-ACKs of one path only, so that paths get smoothed RTTs
     * of their own (the connection's is the smallest, section 10); a later {@link #ackEchoAge(java.time.Duration)}
     * ends every path's own age.
     */
    public synchronized void ackEchoAge(int path, java.time.Duration age) {
        this.pathEchoAgeNs[path] = age.toNanos();
    }

    private long echoAgeNs(int path) {
        return pathEchoAgeNs[path] >= 0 ? pathEchoAgeNs[path] : ackEchoAgeNs;
    }

    /**
     * Whether every auto-ACK is followed by a late one (Table 5-13), as an ACK the network delayed past newer ones
     * would be: the cumulative PSN of an auto-ACK {@link #LATE_ACK_LAG} - 1 progressions earlier on the path, no SACK
     * bits, the same echo, and no rate hint (0xFFFFFFFF). It lags by more than one so that it is still behind the
     * DUT's oldest unacknowledged PSN when the link lost the newest auto-ACK; until a path has that history its
     * auto-ACKs have no late follower.
     */
    public synchronized void lateAckAfterEach(boolean on) {
        this.lateAckAfterEach = on;
    }

    /** The UDP source port of auto-ACKs, by default the tester's MetaRoCE port. */
    public synchronized void ackSourcePort(int port) {
        this.ackSourcePort = port;
    }

    private synchronized void acknowledge(ReceivedPacket received) {
        PathReceiveState.Arrival arrival = onReceived(received);
        if (arrival == null) {
            return;
        }
        DataPacket data = received.data().orElseThrow();
        long echo = (data.transmitTimestamp() - echoAgeNs(data.header().pathId())) & 0xFFFF_FFFFL;
        PacketBuilder builder = ackFor(data.header().pathId(), echo);
        if (ackRateHint >= 0) {
            builder.rateHint(ackRateHint);
        }
        byte[] ack = builder.build();
        try {
            sender.sendUnimpaired(ack, ackSourcePort, Ecn.NOT_ECT);
            int path = data.header().pathId();
            rememberCumulative(path, receive[path].cumulativePsn());
            if (lateAckAfterEach && recentCount[path] == LATE_ACK_LAG) {
                byte[] late = PacketBuilder.ack()
                        .connection(spec.localId())
                        .path(path)
                        .cumulativePsn(recentCumulatives[path][0])
                        .echoedTimestamp(echo)
                        .build();
                sender.sendUnimpaired(late, ackSourcePort, Ecn.NOT_ECT);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("auto-ACK failed", e);
        }
    }

    /** Keeps {@code cumulative} as the path's newest auto-ACKed cumulative PSN, if it moved. */
    private void rememberCumulative(int path, long cumulative) {
        long[] recent = recentCumulatives[path];
        int count = recentCount[path];
        if (count > 0 && recent[count - 1] == cumulative) {
            return;
        }
        if (count == LATE_ACK_LAG) {
            System.arraycopy(recent, 1, recent, 0, LATE_ACK_LAG - 1);
            count--;
        }
        recent[count] = cumulative;
        recentCount[path] = count + 1;
    }
}
