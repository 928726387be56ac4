package org.mrconf.replay;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.PacketFlags;
import org.opentest4j.TestAbortedException;

/**
 * What the DUT sent, judged field by field once it went quiet ({@link SenderSteps} awaited it): every packet of each
 * awaited message against the await step (clauses 4.1.9, 5.1.1 and the message's own fields), its PSNs from the
 * initial send PSN (6.1.1) and its retransmissions against their originals (6.4.2).
 */
final class SentMessageChecks {
    private static final int RESERVED_BYTE_OFFSET = 9;

    private final Sidecar sidecar;
    private final int mtu;
    private final int ipHeaderLength;
    /** The DUT's data packets on the vector's connection, as received. */
    private final Supplier<List<ReceivedPacket>> sent;

    private final List<String> failures;

    SentMessageChecks(
            final Sidecar sidecar,
            final int mtu,
            final int ipHeaderLength,
            final Supplier<List<ReceivedPacket>> sent,
            final List<String> failures) {
        this.sidecar = sidecar;
        this.mtu = mtu;
        this.ipHeaderLength = ipHeaderLength;
        this.sent = sent;
        this.failures = failures;
    }

    /** After the DUT went quiet: every packet of every awaited message, and the PSNs of every path, field by field. */
    void judge(final Map<AwaitedMessages.MessageKey, Sidecar.Await> claimed) {
        final List<DataPacket> sent = sentData();
        for (final Map.Entry<AwaitedMessages.MessageKey, Sidecar.Await> entry : claimed.entrySet()) {
            final List<DataPacket> message = sent.stream()
                    .filter(p -> AwaitedMessages.MessageKey.of(p).equals(entry.getKey()))
                    .toList();
            compare(entry.getValue(), message);
        }
        if (sidecar.expect().sentPsnsFromInitial()) {
            checkPsns(sent);
        }
        if (sidecar.expect().retransmissionsFaithful()) {
            checkRetransmissions(sent);
        }
    }

    /**
     * Clause 6.4.2: every later copy of a segment (same opcode, stream, MSN and message offset) carries the original's
     * path, PSN and fields and payload, the RETRANSMISSION flag, and a transmit timestamp of its own. No copy at all
     * leaves nothing to judge (INCONCLUSIVE).
     */
    private void checkRetransmissions(final List<DataPacket> sent) {
        final Map<String, DataPacket> originals = new LinkedHashMap<>();
        int copies = 0;
        final Set<String> wrong = new TreeSet<>();
        for (final DataPacket p : sent) {
            final String segment = HeldBack.segment(p);
            final DataPacket original = originals.putIfAbsent(segment, p);
            if (original == null) {
                continue;
            }
            copies++;
            final String at = "the retransmission of " + segment + " (PSN "
                    + original.header().psn() + " on path " + original.header().pathId() + "): ";
            if (p.header().pathId() != original.header().pathId()
                    || p.header().psn() != original.header().psn()) {
                wrong.add(at + "went as PSN " + p.header().psn() + " on path "
                        + p.header().pathId());
            }
            if (p.messageLength() != original.messageLength()
                    || p.remoteAddress() != original.remoteAddress()
                    || p.remoteKey() != original.remoteKey()
                    || p.immediate() != original.immediate()
                    || p.receiveSequenceNumber() != original.receiveSequenceNumber()
                    || p.sinkHandle() != original.sinkHandle()
                    || !Arrays.equals(p.payload(), original.payload())) {
                wrong.add(at + "its fields or payload differ from the original's: " + p);
            }
            if ((p.header().flags() & PacketFlags.RETRANSMISSION) == 0) {
                wrong.add(at + "the RETRANSMISSION flag is not set");
            }
            if (p.transmitTimestamp() == original.transmitTimestamp()) {
                wrong.add(at + "it carries the original's transmit timestamp " + p.transmitTimestamp());
            }
        }
        if (copies == 0) {
            throw new TestAbortedException(
                    "the DUT retransmitted nothing, so no retransmission could be compared with its original");
        }
        wrong.stream().limit(8).forEach(failures::add);
    }

    private void compare(final Sidecar.Await await, final List<DataPacket> message) {
        final String what = await.opcode() + " on stream " + await.stream();
        final int paths = sidecar.setup().paths();
        final long length = await.messageLength().orElse(message.get(0).messageLength());
        final byte[] assembled = new byte[(int) Math.min(length, 1 << 26)];
        final boolean[] covered = new boolean[assembled.length];
        final Set<String> wrong = new TreeSet<>();
        for (final DataPacket p : message) {
            final String at = what + ", PSN " + p.header().psn() + " on path "
                    + p.header().pathId() + ": ";
            if (p.header().pathId() >= paths) {
                wrong.add(at + "path " + p.header().pathId() + " is not one of the connection's " + paths);
            }
            expectField(wrong, at, "MSN", await.msn(), p.messageSequenceNumber());
            expectField(wrong, at, "message length", await.messageLength(), p.messageLength());
            expectField(wrong, at, "remote address", await.remoteAddress(), p.remoteAddress());
            expectField(wrong, at, "remote key", await.remoteKey(), p.remoteKey());
            expectField(wrong, at, "immediate", await.immediate(), p.immediate());
            expectField(wrong, at, "RSN", await.rsn(), p.receiveSequenceNumber());
            expectField(wrong, at, "sink handle", await.sinkHandle(), p.sinkHandle());
            if (await.reservedZero()) {
                checkReserved(wrong, at, p);
            }
            if (await.fullSegments() && p.opcode() != Opcode.READ_REQUEST) { // one packet, no payload: no segments
                checkSegment(wrong, at, p, length);
            }
            if (p.opcode() == Opcode.READ_REQUEST) {
                if (p.payloadLength() != 0) {
                    wrong.add(at + "a READ_REQUEST carries " + p.payloadLength() + " payload bytes");
                }
                continue;
            }
            if (p.messageOffset() + p.payloadLength() > length) {
                wrong.add(at + "bytes " + p.messageOffset() + " to " + (p.messageOffset() + p.payloadLength())
                        + " run past the message length " + length);
                continue;
            }
            final byte[] payload = p.payload();
            for (int i = 0; i < payload.length; i++) {
                final int offset = (int) p.messageOffset() + i;
                if (covered[offset] && assembled[offset] != payload[i]) {
                    wrong.add(at + "message byte " + offset + " differs from an earlier copy of it");
                }
                covered[offset] = true;
                assembled[offset] = payload[i];
            }
        }
        wrong.stream().limit(8).forEach(failures::add);
        if (wrong.size() > 8) {
            failures.add(what + ": and " + (wrong.size() - 8) + " more wrong fields");
        }
        if (await.payloadHex().isPresent() || await.payloadSha256().isPresent()) {
            final String hex = HexFormat.of().formatHex(assembled);
            if (await.payloadHex().isPresent() && !await.payloadHex().get().equals(hex)) {
                failures.add(what + ": expected the message bytes "
                        + abbreviate(await.payloadHex().get()) + ", got " + abbreviate(hex));
            }
            if (await.payloadSha256().isPresent()
                    && !await.payloadSha256().get().equals(VectorReplay.sha256(assembled))) {
                failures.add(what + ": expected message bytes of SHA-256 "
                        + await.payloadSha256().get() + ", got " + VectorReplay.sha256(assembled) + " ("
                        + abbreviate(hex) + ")");
            }
        }
    }

    /**
     * Clause 4.1.9: no datagram exceeds the MTU, and every packet but the one carrying the message's last byte holds
     * the largest payload the MTU allows (MTU minus the IP header, UDP header, the opcode's header and the trailer).
     */
    private void checkSegment(final Set<String> wrong, final String at, final DataPacket p, final long length) {
        final int largest = mtu - ipHeaderLength - 8 - p.opcode().headerLength() - 4;
        final int datagram = ipHeaderLength + 8 + p.opcode().headerLength() + p.payloadLength() + 4;
        if (datagram > mtu) {
            wrong.add(at + "its IP datagram of " + datagram + " bytes exceeds the MTU " + mtu);
        } else if (p.messageOffset() + p.payloadLength() < length && p.payloadLength() != largest) {
            wrong.add(at + "carries " + p.payloadLength() + " payload bytes; a packet but the last of a message"
                    + " carries the largest payload the MTU " + mtu + " allows, " + largest);
        }
    }

    /** Clause 5.1.1: reserved fields are sent as zero (bytes 9 to 11 and every flag bit Table 5-3 does not define). */
    private void checkReserved(final Set<String> wrong, final String at, final DataPacket p) {
        final int flags = p.header().flags();
        if ((flags & PacketFlags.RESERVED_MASK) != 0) {
            wrong.add(String.format("%sreserved flag bits 0x%04x are set", at, flags & PacketFlags.RESERVED_MASK));
        }
        final byte[] raw = rawOf(p);
        if (raw != null && raw.length >= RESERVED_BYTE_OFFSET + 3) {
            final byte[] reserved = Arrays.copyOfRange(raw, RESERVED_BYTE_OFFSET, RESERVED_BYTE_OFFSET + 3);
            if (reserved[0] != 0 || reserved[1] != 0 || reserved[2] != 0) {
                wrong.add(at + "reserved bytes 9 to 11 are " + HexFormat.of().formatHex(reserved) + ", not zero");
            }
        }
    }

    private byte[] rawOf(final DataPacket packet) {
        for (final ReceivedPacket received : sent.get()) {
            if (received.data().map(packet::equals).orElse(false)) {
                return received.captured().bytes();
            }
        }
        return null;
    }

    /** Clause 6.1.1: on each path, the DUT's new PSNs are the initial send PSN and each next one, none skipped. */
    private void checkPsns(final List<DataPacket> sent) {
        final long initial = sidecar.setup().initialSendPsn();
        final Map<Integer, Set<Long>> byPath = new TreeMap<>();
        for (final DataPacket p : sent) {
            byPath.computeIfAbsent(p.header().pathId(), path -> new TreeSet<>())
                    .add(Psn.distance(initial, p.header().psn()));
        }
        for (final Map.Entry<Integer, Set<Long>> path : byPath.entrySet()) {
            final List<Long> offsets = new ArrayList<>(path.getValue());
            for (int i = 0; i < offsets.size(); i++) {
                if (offsets.get(i) != i) {
                    failures.add(String.format(
                            "path %d: expected the DUT's PSNs to run from the initial send PSN %d by 1, got %s",
                            path.getKey(),
                            initial,
                            offsets.stream()
                                    .limit(8)
                                    .map(o -> String.valueOf(Psn.add(initial, o)))
                                    .toList()));
                    break;
                }
            }
        }
    }

    private static void expectField(
            final Set<String> wrong,
            final String at,
            final String field,
            final OptionalLong expected,
            final long actual) {
        if (expected.isPresent() && expected.getAsLong() != actual) {
            wrong.add(String.format("%s%s: expected 0x%x, got 0x%x", at, field, expected.getAsLong(), actual));
        }
    }

    static String abbreviate(final String hex) {
        return hex.length() <= 64 ? hex : hex.substring(0, 64) + "... (" + hex.length() / 2 + " bytes)";
    }

    private List<DataPacket> sentData() {
        return sent.get().stream().map(p -> p.data().orElseThrow()).toList();
    }
}
