package org.mrconf.report;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32C;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.Opcode;

/**
 * Decodes the MetaRoCE bytes of an evidence packet into the fields the Wireshark dissector
 * ({@code tools/wireshark/metaroce.lua}) prints, under the same names ({@code metaroce.psn},
 * {@code metaroce.sack.psn}, ...) and at the same offsets, so that a reviewer reads the same thing in the report and
 * in Wireshark. It reads the bytes directly, as the dissector does, so a packet the tester sent malformed on purpose
 * (bad CRC, wrong length, unknown opcode) still shows its fields, with what is wrong named once in
 * {@link Decoded#problems()}.
 */
final class PacketFields {
    private static final int COMMON_LENGTH = 16;
    private static final int TRAILER_LENGTH = 4;
    /** How many SACK PSNs the page lists before it only counts them. */
    private static final int SACK_LISTED = 16;

    private PacketFields() {}

    /** One field as the dissector names it. */
    record Field(String name, String value) {
        @Override
        public String toString() {
            return name + "=" + value;
        }
    }

    /**
     * A decoded packet.
     *
     * @param kind     the opcode name ({@code WRITE}, {@code ACK}, {@code opcode 0x7f}); {@code malformed} when the
     *                 bytes are too short for a common header
     * @param info     the line Wireshark's Info column shows ({@code WRITE path=1 psn=7 stream=0 msn=1 off=0 len=4})
     * @param fields   the fields in the dissector's order
     * @param problems what the dissector's expert info would flag (bad CRC, length, reserved bits), one line each
     */
    record Decoded(String kind, String info, List<Field> fields, List<String> problems) {
        Decoded {
            fields = List.copyOf(fields);
            problems = List.copyOf(problems);
        }

        /** {@code WRITE metaroce.path_id=1 metaroce.psn=7 ... [bad CRC32C]} on one line. */
        String oneLine() {
            final StringBuilder s = new StringBuilder(kind);
            fields.forEach(f -> s.append(' ').append(f));
            problems.forEach(p -> s.append(" [").append(p).append(']'));
            return s.toString();
        }
    }

    /**
     * An evidence packet on one line: its decoded fields, or (bytes too short for a common header, or none recorded)
     * the summary the tester wrote when it sent or received it, with no word said twice.
     */
    static String oneLine(final org.mrconf.verdict.Evidence.PacketRecord p) {
        final java.util.Optional<Decoded> d = decodeHex(p.hex());
        if (d.isEmpty()) {
            return HtmlReport.undoubled(p.summary());
        }
        return "malformed".equals(d.get().kind()) && !p.summary().isBlank()
                ? d.get().oneLine() + " (tester: " + HtmlReport.undoubled(p.summary()) + ")"
                : d.get().oneLine();
    }

    /** Decodes the packet's hex; empty when there are no bytes (or they are not hex). */
    static java.util.Optional<Decoded> decodeHex(final String hex) {
        if (hex.isEmpty()) {
            return java.util.Optional.empty();
        }
        final byte[] bytes;
        try {
            bytes = HexFormat.of().parseHex(hex);
        } catch (IllegalArgumentException e) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(decode(bytes));
    }

    static Decoded decode(final byte[] b) {
        final List<Field> f = new ArrayList<>();
        final List<String> problems = new ArrayList<>();
        final int length = b.length;
        if (length < COMMON_LENGTH + TRAILER_LENGTH) {
            problems.add("packet shorter than its header and trailer (" + length + " bytes)");
            return new Decoded("malformed", "malformed (" + length + " bytes)", f, problems);
        }
        final int version = u8(b, 0);
        final int opcodeValue = u8(b, 1);
        final Opcode opcode = Opcode.fromValue(opcodeValue);
        f.add(new Field("metaroce.version", hex(version, 2)));
        if (version >>> 4 != 1) {
            problems.add("major version " + (version >>> 4) + " is not 1 (5.6.3)");
        }
        f.add(new Field(
                "metaroce.opcode",
                opcode == null ? hex(opcodeValue, 2) : opcode.name() + " (" + hex(opcodeValue, 2) + ")"));
        final int flags = u16(b, 2);
        f.add(new Field("metaroce.flags", flags(flags)));
        if ((flags & 0xFFFC) != 0) {
            problems.add("reserved flag bits set");
        }
        f.add(new Field("metaroce.connection_id", hex(u32(b, 4), 8)));
        f.add(new Field("metaroce.path_id", Integer.toString(u8(b, 8))));
        if (u8(b, 9) != 0 || u16(b, 10) != 0) {
            problems.add("reserved bits are not zero");
        }
        f.add(new Field("metaroce.psn", Long.toString(u32(b, 12))));
        final String kind = opcode == null ? "opcode " + hex(opcodeValue, 2) : opcode.name();
        final StringBuilder info = new StringBuilder(kind)
                .append(" path=")
                .append(u8(b, 8))
                .append(" psn=")
                .append(u32(b, 12));
        if (opcode == null) {
            problems.add("unknown opcode (5.1.2)");
            return new Decoded(kind, info.toString(), f, problems);
        }
        final int headerLength = opcode.headerLength();
        if (length < headerLength + TRAILER_LENGTH) {
            problems.add("packet shorter than its header and trailer (" + length + " bytes)");
            return new Decoded(kind, info.toString(), f, problems);
        }
        final int trailer = length - TRAILER_LENGTH;
        if (opcode.hasDataHeader()) {
            data(b, opcode, f, problems, headerLength, length);
            info.append(" stream=")
                    .append(u16(b, 16))
                    .append(" msn=")
                    .append(u32(b, 20))
                    .append(" off=")
                    .append(u32(b, 28))
                    .append(" len=")
                    .append(u16(b, 18));
        } else {
            if (headerLength + TRAILER_LENGTH != length) {
                problems.add("length " + length + " differs from header + trailer " + (headerLength + TRAILER_LENGTH)
                        + " (5.1.3)");
            }
            switch (opcode) {
                case ACK -> info.append(ack(b, f));
                case NACK -> info.append(nack(b, f, problems));
                default -> f.add(new Field("metaroce.transmit_timestamp", Long.toString(u32(b, 16))));
            }
        }
        final long crc = u32(b, trailer);
        final CRC32C computed = new CRC32C();
        computed.update(b, 0, trailer);
        final boolean good = computed.getValue() == crc;
        f.add(new Field("metaroce.crc32c", hex(crc, 8)));
        f.add(new Field("metaroce.crc32c.status", good ? "Good" : "Bad"));
        if (!good) {
            problems.add("CRC32C does not match: computed " + hex(computed.getValue(), 8) + " (5.6.2)");
        }
        problems.forEach(p -> info.append(" [").append(p).append(']'));
        return new Decoded(kind, info.toString(), f, problems);
    }

    private static void data(
            final byte[] b,
            final Opcode opcode,
            final List<Field> f,
            final List<String> problems,
            final int headerLength,
            final int length) {
        final int payloadLength = u16(b, 18);
        final long messageLength = u32(b, 24);
        final long messageOffset = u32(b, 28);
        f.add(new Field("metaroce.stream_id", Integer.toString(u16(b, 16))));
        f.add(new Field("metaroce.payload_length", Integer.toString(payloadLength)));
        f.add(new Field("metaroce.msn", Long.toString(u32(b, 20))));
        f.add(new Field("metaroce.message_length", Long.toString(messageLength)));
        f.add(new Field("metaroce.message_offset", Long.toString(messageOffset)));
        f.add(new Field("metaroce.transmit_timestamp", Long.toString(u32(b, 32))));
        switch (opcode) {
            case WRITE, WRITE_WITH_IMMEDIATE, READ_REQUEST -> {
                f.add(new Field("metaroce.remote_address", hex(u32(b, 36) << 32 | u32(b, 40), 16)));
                f.add(new Field("metaroce.remote_key", hex(u32(b, 44), 8)));
                if (opcode == Opcode.WRITE_WITH_IMMEDIATE) {
                    f.add(new Field("metaroce.immediate", hex(u32(b, 48), 8)));
                } else if (opcode == Opcode.READ_REQUEST) {
                    f.add(new Field("metaroce.sink_handle", hex(u32(b, 48), 8)));
                }
            }
            case SEND -> f.add(new Field("metaroce.rsn", Long.toString(u32(b, 36))));
            default -> f.add(new Field("metaroce.sink_handle", hex(u32(b, 36), 8)));
        }
        if (messageOffset + payloadLength > messageLength) {
            problems.add("message offset + payload length exceed the message length (5.2.2)");
        }
        if (headerLength + payloadLength + TRAILER_LENGTH != length) {
            problems.add("length " + length + " differs from header + payload + trailer "
                    + (headerLength + payloadLength + TRAILER_LENGTH) + " (5.1.3)");
        }
    }

    private static String ack(final byte[] b, final List<Field> f) {
        f.add(new Field("metaroce.echoed_timestamp", Long.toString(u32(b, 16))));
        f.add(new Field("metaroce.ce_count", Integer.toString(u16(b, 20))));
        final long rate = u32(b, 24);
        f.add(new Field("metaroce.rate_hint", rate == 0xFFFFFFFFL ? "no limit" : Long.toString(rate)));
        final long cumulative = u32(b, 12);
        final List<String> received = new ArrayList<>();
        int count = 0;
        for (int i = 0; i < 256; i++) {
            if ((u8(b, 28 + i / 8) & (1 << (i % 8))) != 0) {
                count++;
                if (received.size() < SACK_LISTED) {
                    received.add(Long.toString((cumulative + i) & 0xFFFFFFFFL));
                }
            }
        }
        if (count > 0) {
            f.add(new Field(
                    "metaroce.sack.psn", String.join(",", received) + (count > received.size() ? ",\u2026" : "")));
        }
        f.add(new Field("metaroce.sack.count", Integer.toString(count)));
        return " cum=" + cumulative + " sacked=" + count + " ce=" + u16(b, 20);
    }

    private static String nack(final byte[] b, final List<Field> f, final List<String> problems) {
        final int code = u8(b, 16);
        final NackCode known = NackCode.fromValue(code);
        f.add(new Field("metaroce.nack.code", known == null ? hex(code, 2) : known.name() + " (" + hex(code, 2) + ")"));
        if (known == null) {
            problems.add("NACK code not in Table 9-1");
        }
        f.add(new Field("metaroce.stream_id", Integer.toString(u16(b, 18))));
        f.add(new Field("metaroce.msn", Long.toString(u32(b, 20))));
        f.add(new Field("metaroce.cumulative_psn", Long.toString(u32(b, 24))));
        f.add(new Field("metaroce.retry_after", Long.toString(u32(b, 28))));
        return " " + (known == null ? "code " + hex(code, 2) : known.name());
    }

    /** The packet records' {@code toString} names for the dissector's field names. */
    private static final java.util.Map<String, String> RECORD_FIELDS = java.util.Map.ofEntries(
            java.util.Map.entry("version", "metaroce.version"),
            java.util.Map.entry("flags", "metaroce.flags"),
            java.util.Map.entry("destinationConnectionId", "metaroce.connection_id"),
            java.util.Map.entry("pathId", "metaroce.path_id"),
            java.util.Map.entry("psn", "metaroce.psn"),
            java.util.Map.entry("streamId", "metaroce.stream_id"),
            java.util.Map.entry("msn", "metaroce.msn"),
            java.util.Map.entry("messageSequenceNumber", "metaroce.msn"),
            java.util.Map.entry("messageLength", "metaroce.message_length"),
            java.util.Map.entry("messageOffset", "metaroce.message_offset"),
            java.util.Map.entry("transmitTimestamp", "metaroce.transmit_timestamp"),
            java.util.Map.entry("remoteAddress", "metaroce.remote_address"),
            java.util.Map.entry("remoteKey", "metaroce.remote_key"),
            java.util.Map.entry("immediate", "metaroce.immediate"),
            java.util.Map.entry("rsn", "metaroce.rsn"),
            java.util.Map.entry("sinkHandle", "metaroce.sink_handle"),
            java.util.Map.entry("echoedTimestamp", "metaroce.echoed_timestamp"),
            java.util.Map.entry("ceCount", "metaroce.ce_count"),
            java.util.Map.entry("rateHint", "metaroce.rate_hint"),
            java.util.Map.entry("code", "metaroce.nack.code"),
            java.util.Map.entry("cumulativePsn", "metaroce.cumulative_psn"),
            java.util.Map.entry("retryAfter", "metaroce.retry_after"));

    private static final java.util.regex.Pattern RECORD =
            java.util.regex.Pattern.compile("\\b(AckPacket|DataPacket|NackPacket|ProbePacket)\\[");

    /**
     * The text with every packet record dump in it ({@code AckPacket[header=CommonHeader[version=16, ...], ...]},
     * as a case's message quotes a packet) spelled as the dissector names the fields:
     * {@code ACK metaroce.version=0x10 metaroce.flags=0x0000 ... metaroce.psn=4 ...}. Text that is not such a dump
     * is left as it is.
     */
    static String respell(final String text) {
        final java.util.regex.Matcher m = RECORD.matcher(text);
        final StringBuilder out = new StringBuilder(text.length());
        int from = 0;
        while (m.find(from)) {
            final int open = m.end() - 1;
            final int close = matching(text, open);
            if (close < 0) {
                break;
            }
            final java.util.LinkedHashMap<String, String> values = new java.util.LinkedHashMap<>();
            flatten(text.substring(open + 1, close), values);
            out.append(text, from, m.start()).append(respelled(m.group(1), values));
            from = close + 1;
        }
        return out.append(text, from, text.length()).toString();
    }

    private static String respelled(final String type, final java.util.Map<String, String> v) {
        final String kind = switch (type) {
            case "AckPacket" -> "ACK";
            case "NackPacket" -> "NACK";
            case "ProbePacket" -> "PROBE";
            default -> v.getOrDefault("opcode", "DATA");
        };
        final Opcode opcode = "DATA".equals(kind) ? null : opcodeNamed(kind);
        final StringBuilder s = new StringBuilder(kind);
        v.forEach((key, value) -> {
            if ("opcode".equals(key) || !shownFor(opcode, key)) {
                return;
            }
            final String name = RECORD_FIELDS.get(key);
            if (key.startsWith("payload(")) {
                s.append(" metaroce.payload_length=").append(key, 8, key.length() - 1);
                if (!value.isEmpty()) {
                    s.append(" metaroce.payload=").append(value);
                }
            } else if ("sackBits".equals(key)) {
                final String bits = value.replaceAll("[\\[\\] ]", "");
                final List<String> psns = new ArrayList<>();
                if (!bits.isEmpty()) {
                    long cumulative = 0;
                    try {
                        cumulative = Long.parseLong(v.getOrDefault("psn", "0"));
                        for (final String bit : bits.split(",")) {
                            psns.add(Long.toString((cumulative + Long.parseLong(bit)) & 0xFFFFFFFFL));
                        }
                    } catch (NumberFormatException e) {
                        psns.clear();
                        psns.add("bits " + bits);
                    }
                }
                if (!psns.isEmpty()) {
                    s.append(" metaroce.sack.psn=").append(String.join(",", psns));
                }
                s.append(" metaroce.sack.count=").append(bits.isEmpty() ? 0 : bits.split(",").length);
            } else if (name == null) {
                s.append(' ').append(key).append('=').append(value);
            } else {
                s.append(' ').append(name).append('=').append(format(key, value));
            }
        });
        return s.toString();
    }

    private static Opcode opcodeNamed(final String name) {
        for (final Opcode o : Opcode.values()) {
            if (o.name().equals(name)) {
                return o;
            }
        }
        return null;
    }

    /** Whether the dissector shows the field for the opcode (a data record prints every extension field). */
    private static boolean shownFor(final Opcode opcode, final String key) {
        if (opcode == null || !opcode.hasDataHeader()) {
            return true;
        }
        return switch (key) {
            case "remoteAddress", "remoteKey" ->
                opcode == Opcode.WRITE || opcode == Opcode.WRITE_WITH_IMMEDIATE || opcode == Opcode.READ_REQUEST;
            case "immediate" -> opcode == Opcode.WRITE_WITH_IMMEDIATE;
            case "rsn" -> opcode == Opcode.SEND;
            case "sinkHandle" -> opcode == Opcode.READ_REQUEST || opcode == Opcode.READ_RESPONSE;
            default -> true;
        };
    }

    /** A record's value in the dissector's base: hex for version, flags, connection id and keys. */
    private static String format(final String key, final String value) {
        try {
            return switch (key) {
                case "version" -> hex(Long.parseLong(value), 2);
                case "flags" -> flags(Integer.parseInt(value));
                case "destinationConnectionId" -> hex(Long.parseLong(value), 8);
                case "rateHint" -> Long.parseLong(value) == 0xFFFFFFFFL ? "no limit" : value;
                default -> value;
            };
        } catch (NumberFormatException e) {
            return value;
        }
    }

    /** Splits {@code a=1, header=CommonHeader[b=2, c=3], d=[1, 2]} into a=1, b=2, c=3, d=[1, 2]. */
    private static void flatten(final String body, final java.util.Map<String, String> into) {
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= body.length(); i++) {
            final char c = i < body.length() ? body.charAt(i) : ',';
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
            } else if (c == ',' && depth == 0) {
                final String part = body.substring(start, i).trim();
                start = i + 1;
                final int eq = part.indexOf('=');
                if (eq <= 0) {
                    continue;
                }
                final String key = part.substring(0, eq);
                final String value = part.substring(eq + 1);
                if (value.startsWith("CommonHeader[") && value.endsWith("]")) {
                    flatten(value.substring("CommonHeader[".length(), value.length() - 1), into);
                } else {
                    into.put(key, value);
                }
            }
        }
    }

    private static int matching(final String text, final int open) {
        int depth = 0;
        for (int i = open; i < text.length(); i++) {
            if (text.charAt(i) == '[') {
                depth++;
            } else if (text.charAt(i) == ']' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    private static String flags(final int flags) {
        final List<String> names = new ArrayList<>();
        if ((flags & 0x0001) != 0) {
            names.add("RETRANSMISSION");
        }
        if ((flags & 0x0002) != 0) {
            names.add("ACK_REQUEST");
        }
        return hex(flags, 4) + (names.isEmpty() ? "" : " (" + String.join("|", names) + ")");
    }

    private static String hex(final long value, final int digits) {
        return "0x" + String.format(Locale.ROOT, "%0" + digits + "x", value);
    }

    private static int u8(final byte[] b, final int at) {
        return b[at] & 0xFF;
    }

    private static int u16(final byte[] b, final int at) {
        return (u8(b, at) << 8) | u8(b, at + 1);
    }

    private static long u32(final byte[] b, final int at) {
        return ((long) u16(b, at) << 16) | u16(b, at + 2);
    }
}
