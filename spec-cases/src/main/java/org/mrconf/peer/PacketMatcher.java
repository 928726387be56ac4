package org.mrconf.peer;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apiguardian.api.API;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.pcap.Ecn;
import org.mrconf.wire.AckPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.DecodeStatus;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.NackPacket;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.Packet;
import org.mrconf.wire.PacketFlags;

/**
 * An expectation about one packet the DUT sends, field by field: an immutable conjunction of named conditions,
 * built fluently and tested against {@link ReceivedPacket}s.
 *
 * <pre>{@code
 * PacketMatcher m = PacketMatcher.expect().ack().connection(7).path(2).covers(5)
 *     .receivedWithin(sentNs, timers.ackDeadline());
 * recorder.await(mark, m, Duration.ofMillis(100));
 * }</pre>
 *
 * <p>The conditions are written so that a test demands no more than the spec: {@link #covers(long)} accepts any
 * ACK of the path whose cumulative PSN has passed the PSN or whose SACK bitmap reports it, because a receiver may
 * coalesce ACKs (clause 8.1.4); {@link #cumulativePsnAtLeast} compares in serial order (clause 2.4) across the
 * wrap; timing conditions take the declared value plus the declared tolerance
 * ({@link #receivedWithinAckDeadline}); nothing here looks at the DUT's entropy unless a test asks, since a sender
 * may change it at any time (clause 4.1.4). Exact conditions ({@link #cumulativePsn}, {@link #sackBits}) are there
 * for the cases where the spec does fix the value.
 *
 * <p>{@link #mismatch} names the first condition a packet fails and the value it had, for failure messages.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class PacketMatcher implements Predicate<ReceivedPacket> {
    private record Condition(String expected, Predicate<ReceivedPacket> test, Function<ReceivedPacket, ?> actual) {}

    private static final PacketMatcher ANY = new PacketMatcher(List.of());

    private final List<Condition> conditions;

    private PacketMatcher(List<Condition> conditions) {
        this.conditions = List.copyOf(conditions);
    }

    /** A matcher that accepts every packet; add conditions to it. */
    public static PacketMatcher expect() {
        return ANY;
    }

    /** A matcher from any predicate, described for failure messages. */
    public static PacketMatcher of(String description, Predicate<ReceivedPacket> predicate) {
        return ANY.where(description, predicate);
    }

    @Override
    public boolean test(ReceivedPacket packet) {
        for (Condition c : conditions) {
            if (!c.test.test(packet)) {
                return false;
            }
        }
        return true;
    }

    /** What this matcher expects, e.g. {@code ACK, path 2, covers PSN 5}. */
    public String description() {
        if (conditions.isEmpty()) {
            return "any packet";
        }
        StringBuilder sb = new StringBuilder();
        for (Condition c : conditions) {
            sb.append(sb.length() == 0 ? "" : ", ").append(c.expected);
        }
        return sb.toString();
    }

    /** The first condition {@code packet} fails, with the value it had; empty if it matches. */
    public Optional<String> mismatch(ReceivedPacket packet) {
        for (Condition c : conditions) {
            if (!c.test.test(packet)) {
                Object actual = c.actual != null ? c.actual.apply(packet) : null;
                return Optional.of("expected " + c.expected + (actual != null ? ", was " + actual : ""));
            }
        }
        return Optional.empty();
    }

    /** Adds a condition. */
    public PacketMatcher where(String description, Predicate<ReceivedPacket> predicate) {
        return with(new Condition(description, predicate, null));
    }

    /** Adds a condition on the decoded packet as {@code type}; other packets fail it. */
    public <T extends Packet> PacketMatcher where(String description, Class<T> type, Predicate<T> predicate) {
        return with(
                new Condition(description, p -> p.as(type).filter(predicate).isPresent(), ReceivedPacket::toString));
    }

    /** Matches packets this or {@code other} matches. */
    public PacketMatcher or(PacketMatcher other) {
        return ANY.with(new Condition(
                "(" + description() + ") or (" + other.description() + ")", p -> test(p) || other.test(p), null));
    }

    private PacketMatcher with(Condition condition) {
        List<Condition> more = new ArrayList<>(conditions);
        more.add(condition);
        return new PacketMatcher(more);
    }

    private <V> PacketMatcher field(
            String expected, Function<ReceivedPacket, Optional<V>> extract, Predicate<V> ok, String absent) {
        return with(new Condition(
                expected,
                p -> extract.apply(p).filter(ok).isPresent(),
                p -> extract.apply(p).<Object>map(v -> v).orElse(absent)));
    }

    private <V> PacketMatcher packetField(String expected, Function<Packet, V> extract, Predicate<V> ok) {
        return field(expected, p -> p.packet().map(extract), ok, "no valid packet");
    }

    private <V> PacketMatcher ackField(String expected, Function<AckPacket, V> extract, Predicate<V> ok) {
        return field(expected, p -> p.ack().map(extract), ok, "not an ACK");
    }

    private <V> PacketMatcher dataField(String expected, Function<DataPacket, V> extract, Predicate<V> ok) {
        return field(expected, p -> p.data().map(extract), ok, "not a data packet");
    }

    // Validity and opcode.

    /** The packet passed every check of the decoder. */
    public PacketMatcher valid() {
        return field("a valid packet", p -> Optional.of(p.status()), s -> s == DecodeStatus.OK, null);
    }

    /** The decoder rejected the packet with {@code status}. */
    public PacketMatcher malformed(DecodeStatus status) {
        return field("malformed: " + status, p -> Optional.of(p.status()), s -> s == status, null);
    }

    public PacketMatcher opcode(Opcode opcode) {
        return packetField(opcode.name(), Packet::opcode, o -> o == opcode);
    }

    public PacketMatcher ack() {
        return opcode(Opcode.ACK);
    }

    public PacketMatcher nack() {
        return opcode(Opcode.NACK);
    }

    public PacketMatcher nack(NackCode code) {
        return nack().field("code " + code, p -> p.nack().map(NackPacket::code), c -> c == code, "not a NACK");
    }

    public PacketMatcher probe() {
        return opcode(Opcode.PROBE);
    }

    /** Any packet with a data header: WRITE, WRITE_WITH_IMMEDIATE, SEND, READ_REQUEST, READ_RESPONSE. */
    public PacketMatcher data() {
        return packetField("a data packet", Packet::opcode, Opcode::hasDataHeader);
    }

    // Common header.

    /** The destination connection id: the tester's id for packets from the DUT. */
    public PacketMatcher connection(long destinationConnectionId) {
        return packetField(
                "connection " + destinationConnectionId,
                p -> p.header().destinationConnectionId(),
                c -> c == destinationConnectionId);
    }

    public PacketMatcher path(int pathId) {
        return packetField("path " + pathId, p -> p.header().pathId(), id -> id == pathId);
    }

    /** The PSN field exactly (for an ACK the cumulative PSN, for a NACK the rejected PSN). */
    public PacketMatcher psn(long psn) {
        return packetField("PSN " + psn, p -> p.header().psn(), v -> v == (psn & Psn.MASK));
    }

    public PacketMatcher version(int version) {
        return packetField(
                "version 0x" + Integer.toHexString(version), p -> p.header().version(), v -> v == version);
    }

    public PacketMatcher flagsSet(int mask) {
        return packetField(
                "flags " + PacketFlags.toString(mask) + " set",
                p -> p.header().flags(),
                f -> PacketFlags.isSet(f, mask));
    }

    public PacketMatcher flagsClear(int mask) {
        return packetField(
                "flags " + PacketFlags.toString(mask) + " clear",
                p -> p.header().flags(),
                f -> (f & mask) == 0);
    }

    public PacketMatcher retransmission() {
        return flagsSet(PacketFlags.RETRANSMISSION);
    }

    public PacketMatcher firstTransmission() {
        return flagsClear(PacketFlags.RETRANSMISSION);
    }

    // ACK.

    /** The ACK's cumulative PSN exactly. */
    public PacketMatcher cumulativePsn(long psn) {
        return ackField("cumulative PSN " + psn, AckPacket::cumulativePsn, c -> c == (psn & Psn.MASK));
    }

    /** The ACK's cumulative PSN is {@code psn} or after it, in serial order. */
    public PacketMatcher cumulativePsnAtLeast(long psn) {
        return ackField("cumulative PSN at or after " + psn, AckPacket::cumulativePsn, c -> Psn.atOrBefore(psn, c));
    }

    /**
     * The ACK reports {@code psn} as received: its cumulative PSN has passed it, or its SACK bitmap has the bit.
     * Any ACK covering the PSN counts, however many others were coalesced with it (clause 8.1.4).
     */
    public PacketMatcher covers(long psn) {
        return with(new Condition(
                "an ACK covering PSN " + psn,
                p -> p.ack().filter(a -> covers(a, psn)).isPresent(),
                p -> p.ack()
                        .<Object>map(a -> "cumulative " + a.cumulativePsn() + " SACK " + Arrays.toString(a.sackBits()))
                        .orElse("not an ACK")));
    }

    /** The ACK covers every one of {@code psns}. */
    public PacketMatcher coversAll(long... psns) {
        PacketMatcher m = this;
        for (long psn : psns) {
            m = m.covers(psn);
        }
        return m;
    }

    /** Whether {@code ack} reports {@code psn} as received. */
    public static boolean covers(AckPacket ack, long psn) {
        long cumulative = ack.cumulativePsn();
        if (Psn.precedes(psn, cumulative)) {
            return true;
        }
        long bit = Psn.distance(cumulative, psn);
        return bit >= 1 && bit < 256 && ack.sackBit((int) bit);
    }

    /** Exactly these SACK bits set, no others. */
    public PacketMatcher sackBits(int... bits) {
        Set<Integer> expected = new TreeSet<>();
        for (int bit : bits) {
            expected.add(bit);
        }
        return ackField("SACK bits exactly " + expected, a -> bitSet(a.sackBits()), expected::equals);
    }

    /** At least these SACK bits set. */
    public PacketMatcher sackIncludes(int... bits) {
        Set<Integer> expected = new TreeSet<>();
        for (int bit : bits) {
            expected.add(bit);
        }
        return ackField("SACK bits including " + expected, a -> bitSet(a.sackBits()), s -> s.containsAll(expected));
    }

    public PacketMatcher echoedTimestamp(long timestamp) {
        return ackField("echoed timestamp " + timestamp, AckPacket::echoedTimestamp, t -> t == timestamp);
    }

    /** The echoed timestamp is one of these: e.g. of any packet the ACK may have been triggered by (8.2.1). */
    public PacketMatcher echoedTimestampIn(Collection<Long> timestamps) {
        Set<Long> allowed = Set.copyOf(timestamps);
        return ackField("echoed timestamp in " + new TreeSet<>(allowed), AckPacket::echoedTimestamp, allowed::contains);
    }

    public PacketMatcher ceCount(int count) {
        return ackField("CE count " + count, AckPacket::ceCount, c -> c == count);
    }

    public PacketMatcher ceCountAtLeast(int count) {
        return ackField("CE count at least " + count, AckPacket::ceCount, c -> c >= count);
    }

    public PacketMatcher rateHint(long mbps) {
        return ackField("rate hint " + mbps, AckPacket::rateHint, r -> r == mbps);
    }

    // NACK.

    /** The NACK's cumulative PSN field. */
    public PacketMatcher nackCumulativePsn(long psn) {
        return field(
                "NACK cumulative PSN " + psn,
                p -> p.nack().map(NackPacket::cumulativePsn),
                c -> c == (psn & Psn.MASK),
                "not a NACK");
    }

    // Data header, and the NACK's stream and MSN.

    public PacketMatcher stream(int streamId) {
        return packetField("stream " + streamId, PacketMatcher::streamOf, s -> s != null && s == streamId);
    }

    public PacketMatcher msn(long msn) {
        return packetField("MSN " + msn, PacketMatcher::msnOf, m -> m != null && m == (msn & Psn.MASK));
    }

    public PacketMatcher messageOffset(long offset) {
        return dataField("message offset " + offset, DataPacket::messageOffset, o -> o == offset);
    }

    public PacketMatcher messageLength(long length) {
        return dataField("message length " + length, DataPacket::messageLength, l -> l == length);
    }

    public PacketMatcher payloadLength(int length) {
        return dataField("payload length " + length, DataPacket::payloadLength, l -> l == length);
    }

    public PacketMatcher payload(byte[] bytes) {
        byte[] copy = bytes.clone();
        return dataField(
                "payload of " + copy.length + " given bytes", DataPacket::payload, b -> Arrays.equals(b, copy));
    }

    public PacketMatcher remoteAddress(long address) {
        return dataField("remote address 0x" + Long.toHexString(address), DataPacket::remoteAddress, a -> a == address);
    }

    public PacketMatcher remoteKey(long key) {
        return dataField("remote key " + key, DataPacket::remoteKey, k -> k == key);
    }

    public PacketMatcher immediate(long immediate) {
        return dataField("immediate " + immediate, DataPacket::immediate, i -> i == immediate);
    }

    public PacketMatcher rsn(long rsn) {
        return dataField("RSN " + rsn, DataPacket::receiveSequenceNumber, r -> r == rsn);
    }

    public PacketMatcher sinkHandle(long handle) {
        return dataField("sink handle " + handle, DataPacket::sinkHandle, h -> h == handle);
    }

    // The datagram.

    public PacketMatcher sourcePort(int port) {
        return field("UDP source port " + port, p -> Optional.of(p.captured().sourcePort()), s -> s == port, null);
    }

    /**
     * The IP ECN field is {@code ecn}. Fails on a link that cannot see received ECN: check
     * {@code link.can(RECEIVE_ECN)} first and report "not applicable" instead.
     */
    public PacketMatcher ecn(Ecn ecn) {
        return field(
                "ECN " + ecn,
                p -> p.captured().ecnObserved() ? Optional.of(p.captured().ecn()) : Optional.empty(),
                e -> e == ecn,
                "not observable on this link");
    }

    /** ECT(0) or ECT(1) (clause 4.1.7); the same caveat as {@link #ecn}. */
    public PacketMatcher ecnCapable() {
        return field(
                "ECN-capable (ECT(0) or ECT(1))",
                p -> p.captured().ecnObserved() ? Optional.of(p.captured().ecn()) : Optional.empty(),
                e -> e == Ecn.ECT_0 || e == Ecn.ECT_1,
                "not observable on this link");
    }

    // Timing, by the link's clock.

    /** Received no later than {@code deadlineNs}. */
    public PacketMatcher receivedBy(long deadlineNs) {
        return field(
                "received by " + deadlineNs + " ns", p -> Optional.of(p.receivedNs()), t -> t - deadlineNs <= 0, null);
    }

    /** Received no later than {@code budget} after {@code sinceNs}. */
    public PacketMatcher receivedWithin(long sinceNs, Duration budget) {
        long budgetNs = budget.toNanos();
        return field(
                "received within " + budgetNs / 1000 + " us of " + sinceNs + " ns",
                p -> Optional.of(p.receivedNs() - sinceNs),
                d -> d <= budgetNs,
                null);
    }

    /**
     * Received within the declared ACK delay plus the declared timer tolerance after {@code sentNs}: the most
     * clause 8.1.4 allows (the tolerance absorbs the link's own latency, which the profile must cover).
     */
    public PacketMatcher receivedWithinAckDeadline(long sentNs, DeviceDeclaration.Timers timers) {
        return receivedWithin(sentNs, timers.ackDeadline());
    }

    private static Set<Integer> bitSet(int[] bits) {
        Set<Integer> set = new TreeSet<>();
        for (int bit : bits) {
            set.add(bit);
        }
        return set;
    }

    private static Integer streamOf(Packet p) {
        if (p instanceof DataPacket d) {
            return d.streamId();
        }
        return p instanceof NackPacket n ? n.streamId() : null;
    }

    private static Long msnOf(Packet p) {
        if (p instanceof DataPacket d) {
            return d.messageSequenceNumber();
        }
        return p instanceof NackPacket n ? n.messageSequenceNumber() : null;
    }

    @Override
    public String toString() {
        return "PacketMatcher[" + description() + "]";
    }
}
