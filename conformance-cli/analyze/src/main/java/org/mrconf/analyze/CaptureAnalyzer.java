package org.mrconf.analyze;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.mrconf.pcap.DecodedFrame;
import org.mrconf.pcap.Ecn;
import org.mrconf.pcap.UdpFrame;
import org.mrconf.wire.AckFlyweight;
import org.mrconf.wire.DataHeaderFlyweight;
import org.mrconf.wire.DecodedPacket;
import org.mrconf.wire.NackFlyweight;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.PacketDecoder;
import org.mrconf.wire.PacketFlags;
import org.mrconf.wire.WireConstants;

/**
 * Judges the packets of a capture one at a time, in capture order, against the wire-observable clauses of
 * {@link Check}, for whichever end sent each packet. It keeps per-path state of bounded size ({@link PathTrack}) and
 * nothing per packet, so a capture of any length is analysed in constant memory per path.
 *
 * <p>An end is an address and a port: the UDP port it receives MetaRoCE packets on (the destination port of the packets
 * sent to it), named {@code address:port} ({@code [address]:port} for IPv6), so that two ends on one address (a DUT
 * and a tester on loopback) are told apart. A packet's source port is its path's entropy, not its sender's port, so
 * the sender is found from the ends the capture shows: a first pass ({@link #learn}) collects them, the ends that
 * receive on the MetaRoCE port and, on other ports, the ends that packets decoding cleanly as MetaRoCE reach at an
 * address that itself sent to the MetaRoCE port; the sender of a packet is then the one end at its source address
 * other than the packet's receiver. Where the capture shows no such end, the sender is {@code address:?}; where it
 * shows several, which one sent the packet cannot be told, and the packet is counted, not judged.
 *
 * <p>The capture is taken to be complete (a tap or mirror port between the two ends, no frames dropped): it sees every
 * ACK before the data sender does, so a sender's knowledge never runs ahead of the capture's. Where a check depends on
 * a declared value (timers) or a claimed profile that was not given, a violation is INCONCLUSIVE, never FAIL.
 */
final class CaptureAnalyzer {
    /** Paths tracked at most (about 1.1 GB of state at 140 KB a path); packets of further paths are counted, not judged. */
    static final int MAX_PATHS = 8_192;
    /** Ends learned at most; packets to further ends are counted, not judged. */
    static final int MAX_ENDS = 4_096;
    /** The note of packets whose sender the capture cannot tell among several ends at its address. */
    static final String AMBIGUOUS_SENDER =
            "frames from an address with several ends, whose sender the capture cannot tell";

    private static final int FLAGS_OFFSET = 2;
    private static final int TIMESTAMP_OFFSET = DataHeaderFlyweight.TRANSMIT_TIMESTAMP_OFFSET;

    private final int port;
    private final long resendMarginNs;
    private final Findings findings = new Findings();
    private final PacketDecoder decoder = new PacketDecoder();
    private final DecodedPacket decoded = new DecodedPacket();
    private final CRC32C digest = new CRC32C();
    private final Map<FlowKey, PathTrack> paths = new HashMap<>();
    /** Connection ids each (sender, receiver) pair sends data to, for binding ACKs to the data they acknowledge. */
    private final Map<EndPair, List<Long>> dataConnections = new HashMap<>();
    /** (ACK sender, ACK receiver, ACK's destination connection) to the data's destination connection. */
    private final Map<AckKey, Long> ackBindings = new HashMap<>();

    private final Map<String, Long> notes = new HashMap<>();
    private long frames;
    private long metaroceFrames;
    private long firstFrameNs = Long.MIN_VALUE;

    /** Whether {@link #learn} has seen the capture; if not, only packets to the MetaRoCE port are judged. */
    private boolean learned;
    /** The ends the first pass found, by address as the capture shows it. */
    private final Map<String, List<String>> endsByAddress = new HashMap<>();
    /** Addresses that sent packets to the MetaRoCE port. */
    private final java.util.Set<String> talkers = new java.util.HashSet<>();
    /** Ends on other ports that cleanly decoding MetaRoCE packets reached, with their address. */
    private final Map<String, String> otherPortEnds = new HashMap<>();

    /**
     * @param port the MetaRoCE destination UDP port (clause 4.1.3)
     * @param resendMargin how long after an ACK reported a PSN received the sender may still resend it, because the ACK
     *     had not reached it yet: the time from the capture point to the sender and the sender's reaction
     */
    CaptureAnalyzer(final int port, final Duration resendMargin) {
        this.port = port;
        this.resendMarginNs = resendMargin.toNanos();
    }

    Findings findings() {
        return findings;
    }

    long frames() {
        return frames;
    }

    long metaroceFrames() {
        return metaroceFrames;
    }

    /** Counts of what was not judged (frames of other protocols, truncated frames, unbound ACKs), by reason. */
    Map<String, Long> notes() {
        return notes;
    }

    int pathCount() {
        return paths.size();
    }

    /**
     * First pass: learns the ends from one frame. Call for every frame of the capture, then {@link #endLearning()},
     * before judging any with {@link #onFrame}.
     */
    void learn(final DecodedFrame frame) {
        final UdpFrame udp = frame.frame();
        final String destination = udp.dstIp().getHostAddress();
        final String end = end(udp.dstIp(), udp.dstPort());
        if (udp.dstPort() == port) {
            talkers.add(udp.srcIp().getHostAddress());
            addEnd(destination, end);
        } else if (!otherPortEnds.containsKey(end) && otherPortEnds.size() < MAX_ENDS) {
            final ByteBuffer payload = udp.payload();
            if (decoder.decode(payload, payload.position(), payload.remaining(), decoded)
                    .equals(org.mrconf.wire.DecodeStatus.OK)) {
                otherPortEnds.put(end, destination);
            }
        }
    }

    /** Ends the first pass: an end on another port counts if its address also sent to the MetaRoCE port. */
    void endLearning() {
        otherPortEnds.forEach((end, address) -> {
            if (talkers.contains(address)) {
                addEnd(address, end);
            }
        });
        otherPortEnds.clear();
        talkers.clear();
        learned = true;
    }

    private void addEnd(final String address, final String end) {
        final List<String> ends = endsByAddress.computeIfAbsent(address, k -> new ArrayList<>(2));
        if (!ends.contains(end) && endCount() < MAX_ENDS) {
            ends.add(end);
        }
    }

    private int endCount() {
        int count = 0;
        for (final List<String> ends : endsByAddress.values()) {
            count += ends.size();
        }
        return count;
    }

    /** Whether packets to this end are MetaRoCE packets to judge. */
    private boolean receives(final String address, final String end, final int dstPort) {
        if (!learned) {
            return dstPort == port;
        }
        final List<String> ends = endsByAddress.get(address);
        return ends != null && ends.contains(end);
    }

    /**
     * The end that sent a packet from {@code address} to {@code receiver}: the one other end at that address;
     * {@code address:?} if the capture shows none; null if it shows several.
     */
    private String sender(final InetAddress address, final String receiver) {
        final List<String> ends = endsByAddress.getOrDefault(address.getHostAddress(), List.of());
        String found = null;
        for (final String end : ends) {
            if (!end.equals(receiver)) {
                if (found != null) {
                    return null;
                }
                found = end;
            }
        }
        return found != null ? found : host(address) + ":?";
    }

    /** An end's name: {@code address:port}, or {@code [address]:port} for IPv6. */
    static String end(final InetAddress address, final int port) {
        return host(address) + ":" + port;
    }

    private static String host(final InetAddress address) {
        return address instanceof java.net.Inet6Address
                ? "[" + address.getHostAddress() + "]"
                : address.getHostAddress();
    }

    /** The address of an end name, as {@code --profile ADDRESS=FILE} names it. */
    static String address(final String end) {
        final int colon = end.lastIndexOf(':');
        final String host = colon < 0 ? end : end.substring(0, colon);
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    /** A frame that is not Ethernet/IP/UDP, or not whole. */
    void onUndecodableFrame(final String reason) {
        frames++;
        note(reason);
    }

    /** Judges one frame; {@code frameNumber} is 1-based, as Wireshark numbers frames. */
    void onFrame(final long frameNumber, final DecodedFrame frame) {
        frames++;
        final UdpFrame udp = frame.frame();
        final String destination = end(udp.dstIp(), udp.dstPort());
        if (!receives(udp.dstIp().getHostAddress(), destination, udp.dstPort())) {
            note("frames to no MetaRoCE end of the capture");
            return;
        }
        metaroceFrames++;
        final long nowNs = nanos(udp);
        final String source = learned ? sender(udp.srcIp(), destination) : host(udp.srcIp()) + ":?";
        if (source == null) {
            note(AMBIGUOUS_SENDER);
            return;
        }
        final ByteBuffer payload = udp.payload();
        final int offset = payload.position();
        final int length = payload.remaining();
        if (!decoder.decode(payload, offset, length, decoded).equals(org.mrconf.wire.DecodeStatus.OK)) {
            final Check check = Check.forDecodeClause(decoded.error().clause());
            findings.violation(source, check, "sent a packet the codec rejects: " + decoded.error(), frameNumber);
            return;
        }
        judgeCommonHeader(source, frameNumber);
        switch (decoded.opcode()) {
            case ACK -> onAck(source, destination, udp.srcPort(), frameNumber, nowNs);
            case NACK -> onNack(source, destination, frameNumber, nowNs);
            case PROBE -> onProbe(source, destination, udp, frameNumber);
            default -> onData(source, destination, udp, frameNumber, nowNs, offset, length);
        }
    }

    private void judgeCommonHeader(final String source, final long frameNumber) {
        findings.judged(source, Check.CRC);
        findings.judged(source, Check.LENGTHS);
        final var header = decoded.commonHeader();
        if (header.version() != WireConstants.VERSION_1_0) {
            findings.violation(
                    source, Check.VERSION, "sent version 0x" + Integer.toHexString(header.version()), frameNumber);
        } else {
            findings.judged(source, Check.VERSION);
        }
        if (header.reserved1() != 0 || header.reserved2() != 0 || (header.flags() & ~PacketFlags.DEFINED_MASK) != 0) {
            findings.violation(
                    source,
                    Check.LAYOUT,
                    String.format(
                            "sent non-zero reserved bits (reserved %02x %04x, flags %04x)",
                            header.reserved1(), header.reserved2(), header.flags()),
                    frameNumber);
        } else {
            findings.judged(source, Check.LAYOUT);
        }
    }

    private void onData(
            final String source,
            final String destination,
            final UdpFrame udp,
            final long frameNumber,
            final long nowNs,
            final int offset,
            final int length) {
        final DataHeaderFlyweight data = decoded.dataHeader();
        final long connection = data.destinationConnectionId();
        final PathTrack path = path(source, destination, connection, data.pathId());
        if (path == null) {
            return;
        }
        judgeEcn(source, udp.ecn(), frameNumber);
        findings.judged(source, Check.SEGMENT);
        if (decoded.opcode() == Opcode.READ_REQUEST) {
            findings.judged(source, Check.READ_REQUEST_FORMAT);
        }
        final long psn = data.psn();
        final int fields = fieldsDigest(udp.payload(), offset, length);
        final long timestamp = data.transmitTimestamp();
        final boolean flagged = data.hasFlags(PacketFlags.RETRANSMISSION);
        if (path.sent(psn)) {
            onResend(source, path, psn, flagged, fields, timestamp, udp.srcPort(), frameNumber, nowNs);
        } else if (flagged) {
            // The original was sent before the capture began, or forgotten: nothing to compare with.
            note("retransmissions whose original the capture does not hold");
            path.remember(psn, frameNumber, nowNs, timestamp, fields, data.streamId(), data.messageSequenceNumber());
        } else {
            path.endTimeoutRun();
            onNewPsn(source, path, psn, frameNumber);
            path.remember(psn, frameNumber, nowNs, timestamp, fields, data.streamId(), data.messageSequenceNumber());
        }
        path.onPacketPort(udp.srcPort());
    }

    private void onNewPsn(final String source, final PathTrack path, final long psn, final long frameNumber) {
        if (path.nextNewPsn >= 0) {
            if (psn == path.nextNewPsn) {
                findings.judged(source, Check.PSN_ASSIGNMENT);
            } else {
                findings.violation(
                        source,
                        Check.PSN_ASSIGNMENT,
                        String.format("sent new PSN %d on path %s where %d was due", psn, path.label, path.nextNewPsn),
                        frameNumber);
            }
        }
        if (path.nextNewPsn < 0 || !PathTrack.before(psn, path.nextNewPsn)) {
            path.nextNewPsn = (psn + 1) & 0xFFFF_FFFFL;
        }
        if (path.cumulativePsn >= 0) {
            if (PathTrack.distance(path.cumulativePsn, psn) < WireConstants.SACK_BITS
                    || PathTrack.before(psn, path.cumulativePsn)) {
                findings.judged(source, Check.SEND_WINDOW);
            } else {
                findings.violation(
                        source,
                        Check.SEND_WINDOW,
                        String.format(
                                "sent PSN %d on path %s while the last ACK's cumulative PSN was %d (window 256)",
                                psn, path.label, path.cumulativePsn),
                        frameNumber);
            }
        }
    }

    private void onResend(
            final String source,
            final PathTrack path,
            final long psn,
            final boolean flagged,
            final int fields,
            final long timestamp,
            final int sourcePort,
            final long frameNumber,
            final long nowNs) {
        final int slot = PathTrack.slot(psn);
        final long original = path.firstFrame[slot];
        if (!flagged) {
            findings.violation(
                    source,
                    Check.RETRANSMISSION_FORMAT,
                    String.format("resent PSN %d on path %s without the RETRANSMISSION flag", psn, path.label),
                    original,
                    frameNumber);
        } else if (fields != path.fieldsDigest[slot]) {
            findings.violation(
                    source,
                    Check.RETRANSMISSION_FORMAT,
                    String.format(
                            "resent PSN %d on path %s with fields or payload that differ from the original",
                            psn, path.label),
                    original,
                    frameNumber);
        } else if (timestamp == path.latestTimestamp[slot]) {
            findings.violation(
                    source,
                    Check.RETRANSMISSION_FORMAT,
                    String.format(
                            "resent PSN %d on path %s with the previous transmission's timestamp %d",
                            psn, path.label, timestamp),
                    path.lastFrame[slot],
                    frameNumber);
        } else {
            findings.judged(source, Check.RETRANSMISSION_FORMAT);
        }
        if (path.ackedAtNs[slot] >= 0) {
            final long sinceAckNs = nowNs - path.ackedAtNs[slot];
            if (sinceAckNs > resendMarginNs) {
                findings.violation(
                        source,
                        Check.NO_RESEND_OF_ACKED,
                        String.format(
                                "resent PSN %d on path %s %.3f ms after an ACK reported it received",
                                psn, path.label, sinceAckNs / 1e6),
                        path.ackedFrame[slot],
                        frameNumber);
            } else {
                note("resends of acknowledged PSNs within the margin, not judged");
            }
        } else {
            findings.judged(source, Check.NO_RESEND_OF_ACKED);
        }
        // Only the retransmission timer resends a PSN that no ACK since its previous transmission reported missing
        // below a later received PSN (clause 6.3.1) and no NACK named since.
        final boolean timeout = path.gapSeenNs[slot] < path.lastSendNs[slot];
        if (timeout) {
            judgeTimeoutResend(source, path, slot, psn, sourcePort, frameNumber, nowNs);
        } else {
            path.timerResent[slot] = false;
        }
        path.lastFrame[slot] = frameNumber;
        path.lastSendNs[slot] = nowNs;
        path.portChangesAtSend[slot] = path.portChanges();
        path.resent(slot, timestamp);
    }

    /**
     * A resend that no ACK or NACK asked for: the retransmission timer's, or a sender's own initiative. Clause 6.6.4 is
     * judged per PSN: a second such resend in a row must not come from the source port of the PSN's previous
     * transmission while the path kept that port all along, for then an expiry passed without a new entropy. Clause 6.6.3 is judged per path, on the expiries
     * the capture shows: a run of timeout resends is one expiry (one expiry may resend many PSNs, paced over time),
     * and a PSN resent again within the run starts the next. With no ACK of the path between them, the time from one
     * expiry to the next must grow (judged with a wide margin: the capture's clock is not the sender's, and a sender
     * may spread one expiry's resends over time).
     */
    private void judgeTimeoutResend(
            final String source,
            final PathTrack path,
            final int slot,
            final long psn,
            final int sourcePort,
            final long frameNumber,
            final long nowNs) {
        if (sourcePort != path.entropy || path.portChangesAtSend[slot] != path.portChanges()) {
            findings.judged(source, Check.REPATH_AFTER_TIMEOUT);
        } else if (path.timerResent[slot]) {
            findings.violation(
                    source,
                    Check.REPATH_AFTER_TIMEOUT,
                    String.format(
                            "resent PSN %d on path %s twice with no ACK between, from the same UDP source port %d as"
                                    + " its previous transmission, which the path has kept since",
                            psn, path.label, sourcePort),
                    path.lastFrame[slot],
                    frameNumber);
        } else {
            // Once unprompted on the same port: a sender may resend before its timer expires (a tail probe, a
            // resend held back by its window), so only a second one proves an expiry without a new entropy.
            note("first unprompted resends from an unchanged source port, not judged for 6.6.4");
        }
        path.timerResent[slot] = true;
        if (path.timeoutRun != 0 && path.runOfSlot[slot] != path.timeoutRun) {
            path.runOfSlot[slot] = path.timeoutRun; // a further resend of the same expiry
            return;
        }
        // A new expiry.
        final long previousStartNs = path.runStartNs;
        final long previousIntervalNs = path.expiryIntervalNs;
        final long previousFrame = path.previousRunFrame;
        path.startTimeoutRun(nowNs, frameNumber);
        path.runOfSlot[slot] = path.timeoutRun;
        if (previousStartNs == Long.MIN_VALUE || path.lastAckNs > previousStartNs) {
            path.expiryIntervalNs = 0; // the first expiry the capture shows, or an ACK came: no doubling is due
            return;
        }
        final long intervalNs = nowNs - previousStartNs;
        if (previousIntervalNs > 0) {
            if (intervalNs * 4 < previousIntervalNs * 5) {
                findings.violation(
                        source,
                        Check.BACKOFF,
                        String.format(
                                "expiries of path %s's timer %.3f ms then %.3f ms apart with no ACK of the path: the"
                                        + " RTO did not double",
                                path.label, previousIntervalNs / 1e6, intervalNs / 1e6),
                        previousFrame,
                        frameNumber);
            } else {
                findings.judged(source, Check.BACKOFF);
            }
        }
        path.expiryIntervalNs = intervalNs;
    }

    private void onAck(
            final String source,
            final String destination,
            final int sourcePort,
            final long frameNumber,
            final long nowNs) {
        final AckFlyweight ack = decoded.ack();
        findings.judged(source, Check.SACK_BASE);
        final PathTrack path = boundPath(source, destination, ack.destinationConnectionId(), ack.pathId(), ack);
        if (path == null) {
            note("ACKs the capture cannot tie to data it holds");
            return;
        }
        final long cumulative = ack.cumulativePsn();
        long highestSacked = -1;
        boolean reportsOnlySent = true;
        String unsent = "";
        if (path.judgeable((cumulative - 1) & 0xFFFF_FFFFL) && !path.sent((cumulative - 1) & 0xFFFF_FFFFL)) {
            reportsOnlySent = false;
            unsent = "cumulative PSN " + cumulative + " reports PSN " + ((cumulative - 1) & 0xFFFF_FFFFL);
        }
        for (int word = 0; word < AckFlyweight.SACK_WORDS; word++) {
            long bits = ack.sackWord(word);
            while (bits != 0) {
                final int bit = word * Long.SIZE + Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                final long psn = AckFlyweight.sackPsn(cumulative, bit);
                highestSacked = psn;
                if (path.judgeable(psn) && !path.sent(psn)) {
                    reportsOnlySent = false;
                    unsent = "SACK bit " + bit + " reports PSN " + psn;
                } else {
                    markAcked(path, psn, frameNumber, nowNs);
                }
            }
        }
        markGaps(path, ack, cumulative, nowNs);
        if (reportsOnlySent) {
            findings.judged(source, Check.ACK_AFTER_RECEIPT);
        } else {
            findings.violation(
                    source,
                    Check.ACK_AFTER_RECEIPT,
                    "acknowledged on path " + path.label + " a PSN the peer never sent: " + unsent,
                    frameNumber);
        }
        markAckedBefore(path, cumulative, frameNumber, nowNs);
        if (path.sentTimestamp(ack.echoedTimestamp(), cumulative, highestSacked)) {
            findings.judged(source, Check.ECHOED_TIMESTAMP);
        } else if (path.olderThanMemory(ack.echoedTimestamp())) {
            note("echoed timestamps older than the analyser remembers of the path, not judged");
        } else if (path.highestPsn >= 0) {
            findings.violation(
                    source,
                    Check.ECHOED_TIMESTAMP,
                    String.format(
                            "echoed timestamp %d on path %s, which no packet of the path carried",
                            ack.echoedTimestamp(), path.label),
                    frameNumber);
        }
        if (path.recentPort(sourcePort)) {
            findings.judged(source, Check.ACK_FOLLOWS_ENTROPY);
        } else if (path.entropy >= 0) {
            findings.violation(
                    source,
                    Check.ACK_FOLLOWS_ENTROPY,
                    String.format(
                            "sent an ACK of path %s from UDP source port %d; the path's recent data came from %d",
                            path.label, sourcePort, path.entropy),
                    frameNumber);
        }
        if (path.cumulativePsn < 0 || PathTrack.after(cumulative, path.cumulativePsn)) {
            path.cumulativePsn = cumulative;
        }
        path.lastAckNs = nowNs;
    }

    /** Records, for each PSN the ACK reports missing below one it reports received, that a gap showed it lost. */
    private static void markGaps(
            final PathTrack path, final AckFlyweight ack, final long cumulative, final long nowNs) {
        int highestBit = -1;
        for (int word = AckFlyweight.SACK_WORDS - 1; word >= 0 && highestBit < 0; word--) {
            final long bits = ack.sackWord(word);
            if (bits != 0) {
                highestBit = word * Long.SIZE + 63 - Long.numberOfLeadingZeros(bits);
            }
        }
        for (int bit = 0; bit < highestBit; bit++) {
            if (!ack.sackBit(bit)) {
                final long psn = AckFlyweight.sackPsn(cumulative, bit);
                if (path.sent(psn)) {
                    path.gapSeenNs[PathTrack.slot(psn)] = nowNs;
                }
            }
        }
    }

    private static void markAcked(final PathTrack path, final long psn, final long frameNumber, final long nowNs) {
        if (path.sent(psn)) {
            final int slot = PathTrack.slot(psn);
            if (path.ackedAtNs[slot] < 0) {
                path.ackedAtNs[slot] = nowNs;
                path.ackedFrame[slot] = frameNumber;
            }
        }
    }

    private static void markAckedBefore(
            final PathTrack path, final long cumulative, final long frameNumber, final long nowNs) {
        final long from = path.cumulativePsn >= 0 && PathTrack.before(path.cumulativePsn, cumulative)
                ? path.cumulativePsn
                : (cumulative - WireConstants.SACK_BITS) & 0xFFFF_FFFFL;
        for (long psn = from; PathTrack.before(psn, cumulative); psn = (psn + 1) & 0xFFFF_FFFFL) {
            markAcked(path, psn, frameNumber, nowNs);
        }
    }

    private void onNack(final String source, final String destination, final long frameNumber, final long nowNs) {
        final NackFlyweight nack = decoded.nack();
        final PathTrack path = boundPath(source, destination, nack.destinationConnectionId(), nack.pathId(), null);
        if (path == null) {
            note("NACKs the capture cannot tie to data it holds");
            return;
        }
        final long psn = nack.psn();
        if (!path.judgeable(psn)) {
            return;
        }
        final int slot = PathTrack.slot(psn);
        if (!path.sent(psn)) {
            findings.violation(
                    source,
                    Check.NACK_NAMES_A_PACKET,
                    String.format("NACKed PSN %d on path %s, which the peer never sent", psn, path.label),
                    frameNumber);
        } else if (path.stream[slot] != nack.streamId() || path.msn[slot] != nack.messageSequenceNumber()) {
            findings.violation(
                    source,
                    Check.NACK_NAMES_A_PACKET,
                    String.format(
                            "NACKed PSN %d on path %s as stream %d MSN %d; that packet was stream %d MSN %d",
                            psn,
                            path.label,
                            nack.streamId(),
                            nack.messageSequenceNumber(),
                            path.stream[slot],
                            path.msn[slot]),
                    path.firstFrame[slot],
                    frameNumber);
        } else {
            findings.judged(source, Check.NACK_NAMES_A_PACKET);
            path.gapSeenNs[slot] = nowNs; // its resend answers the NACK, not the timer
        }
    }

    private void onProbe(final String source, final String destination, final UdpFrame udp, final long frameNumber) {
        final int sourcePort = udp.srcPort();
        final var probe = decoded.probe();
        if (probe.hasFlags(PacketFlags.ACK_REQUEST)) {
            findings.judged(source, Check.PROBE_FORMAT);
        } else {
            findings.violation(source, Check.PROBE_FORMAT, "sent a PROBE without ACK_REQUEST", frameNumber);
        }
        final PathTrack path = path(source, destination, probe.destinationConnectionId(), probe.pathId());
        if (path != null) {
            judgeEcn(source, udp.ecn(), frameNumber); // PROBEs are ECN-capable as data (4.1.7)
            path.onProbe(probe.transmitTimestamp());
            path.onPacketPort(sourcePort);
        }
    }

    private void judgeEcn(final String source, final Ecn ecn, final long frameNumber) {
        if (ecn == Ecn.NOT_ECT) {
            findings.violation(
                    source,
                    Check.ECN_ON_DATA,
                    "sent a " + (decoded.opcode() == Opcode.PROBE ? "PROBE" : "data packet") + " marked Not-ECT",
                    frameNumber);
        } else {
            findings.judged(source, Check.ECN_ON_DATA);
        }
    }

    /** The data path of a packet its sender sends; null when too many paths are tracked already. */
    private PathTrack path(final String sender, final String receiver, final long connection, final int pathId) {
        final FlowKey key = new FlowKey(sender, receiver, connection, pathId);
        PathTrack path = paths.get(key);
        if (path == null) {
            if (paths.size() >= MAX_PATHS) {
                note("packets of paths beyond the " + MAX_PATHS + " tracked");
                return null;
            }
            path = new PathTrack(sender, receiver, connection + "/" + pathId);
            paths.put(key, path);
            final List<Long> connections =
                    dataConnections.computeIfAbsent(new EndPair(sender, receiver), k -> new ArrayList<>());
            if (!connections.contains(connection)) {
                connections.add(connection);
            }
        }
        return path;
    }

    /**
     * The data path an ACK or NACK from {@code source} acknowledges. The header names only the destination's
     * connection id, so the data's connection is found once per connection: the only one the peer sends data on, or
     * the one whose path holds the PSNs the ACK reports.
     */
    private PathTrack boundPath(
            final String source,
            final String destination,
            final long connection,
            final int pathId,
            final AckFlyweight ack) {
        final AckKey key = new AckKey(source, destination, connection);
        Long bound = ackBindings.get(key);
        if (bound == null) {
            final List<Long> candidates = dataConnections.getOrDefault(new EndPair(destination, source), List.of());
            if (candidates.size() == 1) {
                bound = candidates.get(0);
            } else if (ack != null) {
                for (final long candidate : candidates) {
                    final PathTrack path = paths.get(new FlowKey(destination, source, candidate, pathId));
                    if (path != null && path.sent((ack.cumulativePsn() - 1) & 0xFFFF_FFFFL)) {
                        bound = candidate;
                        break;
                    }
                }
            }
            if (bound == null) {
                return null;
            }
            ackBindings.put(key, bound);
        }
        return paths.get(new FlowKey(destination, source, bound, pathId));
    }

    /** The bytes a retransmission must repeat (clause 6.4.2): all but the flags, the timestamp and the trailer. */
    private int fieldsDigest(final ByteBuffer buffer, final int offset, final int length) {
        digest.reset();
        final ByteBuffer view = buffer.duplicate();
        update(view, offset, FLAGS_OFFSET);
        update(view, offset + FLAGS_OFFSET + 2, TIMESTAMP_OFFSET - FLAGS_OFFSET - 2);
        update(view, offset + TIMESTAMP_OFFSET + 4, length - TIMESTAMP_OFFSET - 4 - WireConstants.TRAILER_LENGTH);
        return (int) digest.getValue();
    }

    private void update(final ByteBuffer view, final int from, final int count) {
        view.limit(from + count).position(from);
        digest.update(view);
        view.limit(view.capacity());
    }

    private long nanos(final UdpFrame udp) {
        final long ns = udp.timestamp().getEpochSecond() * 1_000_000_000L
                + udp.timestamp().getNano();
        if (firstFrameNs == Long.MIN_VALUE) {
            firstFrameNs = ns;
        }
        return ns - firstFrameNs;
    }

    private void note(final String reason) {
        notes.merge(reason, 1L, Long::sum);
    }

    private record FlowKey(String sender, String receiver, long connection, int path) {}

    private record EndPair(String sender, String receiver) {}

    private record AckKey(String sender, String receiver, long connection) {}
}
