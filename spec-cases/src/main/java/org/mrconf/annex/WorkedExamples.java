package org.mrconf.annex;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import org.mrconf.wire.AckPacket;
import org.mrconf.wire.CommonHeader;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.NackPacket;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.Packet;
import org.mrconf.wire.PacketFlags;
import org.mrconf.wire.ProbePacket;

/**
 * Annex C of the Open Draft (informative): one worked example per packet type (each opcode, an ACK with a SACK gap,
 * a NACK of each code, a PROBE), each encoded by the wire codec and shown as an annotated field table and a hex dump
 * with its CRC32C. {@link #annex()} renders the annex exactly as the spec holds it; {@code WorkedExamplesTest}
 * fails when the two differ, and checks the committed text independently of this class (the hex decodes to the
 * annotated fields, the CRC is right, the codec re-encodes the fields to the same bytes).
 */
public final class WorkedExamples {
    /** The annex's heading line in the spec; the annex runs from it to the end of the document. */
    public static final String HEADING = "## Annex C (informative) Worked examples";

    private static final HexFormat HEX = HexFormat.of();
    private static final long DUT = 0x0001_0001L;
    private static final long TIMESTAMP = 0x3B9A_CA07L;

    /** One example: a title, what it shows, and the packet. */
    public record Example(String title, String description, Packet packet) {}

    /** One annotated field of an example: where it is, its name, its bytes as a number, and what they mean. */
    public record Field(int offset, int size, String name, String meaning) {}

    private WorkedExamples() {}

    /** Every example, in annex order. */
    public static List<Example> examples() {
        final List<Example> examples = new ArrayList<>();
        final byte[] eight = bytes(8);
        examples.add(new Example(
                "WRITE",
                "The second packet of a 24-byte WRITE: 8 bytes at message offset 8, on path 1, PSN 5, stream 0, MSN 2,"
                        + " placed at remote address + 8 (clause 5.2.3).",
                DataPacket.write(
                        CommonHeader.of(DUT, 1, 5), 0, 2, 24, 8, TIMESTAMP, 0x7000_0000L, 0x1234_5678L, eight)));
        examples.add(new Example(
                "WRITE_WITH_IMMEDIATE",
                "A one-packet WRITE_WITH_IMMEDIATE of 8 bytes asking for an ACK (the last packet of its message).",
                DataPacket.writeWithImmediate(
                        CommonHeader.of(DUT, 0, 0).withFlags(PacketFlags.ACK_REQUEST),
                        0,
                        3,
                        8,
                        0,
                        TIMESTAMP,
                        0x7000_0100L,
                        0x1234_5678L,
                        0xCAFE_F00DL,
                        eight)));
        examples.add(new Example(
                "SEND",
                "A retransmitted one-packet SEND on stream 1 that consumes the stream's receive 4 (RSN 4).",
                DataPacket.send(
                        CommonHeader.of(DUT, 2, 0xFFFF_FFFFL)
                                .withFlags(PacketFlags.RETRANSMISSION | PacketFlags.ACK_REQUEST),
                        1,
                        7,
                        8,
                        0,
                        TIMESTAMP,
                        4,
                        eight)));
        examples.add(new Example(
                "READ_REQUEST",
                "A request to read 4096 bytes, with no payload and message offset 0 (clause 5.2.5).",
                DataPacket.readRequest(
                        CommonHeader.of(DUT, 0, 9).withFlags(PacketFlags.ACK_REQUEST),
                        0,
                        4,
                        4096,
                        TIMESTAMP,
                        0x7000_8000L,
                        0x1234_5678L,
                        0x55)));
        examples.add(new Example(
                "READ_RESPONSE",
                "Bytes 4088 to 4095 of the response to that READ, sent by the responder on its own path 3, PSN 17.",
                DataPacket.readResponse(
                        CommonHeader.of(0x0002_0002L, 3, 17), 0, 4, 4096, 4088, TIMESTAMP, 0x55, eight)));
        examples.add(new Example(
                "ACK with a SACK gap",
                "Path 1, cumulative PSN 5: PSN 5 is missing, PSNs 6, 7 and 9 arrived, PSN 8 is missing too. One CE-marked"
                        + " packet since the previous ACK; rate hint 25,000 Mbit/s.",
                AckPacket.of(CommonHeader.of(0x0002_0002L, 1, 5), TIMESTAMP, 1, 25_000, 1, 2, 4)));
        for (final NackCode code : NackCode.values()) {
            examples.add(nack(code));
        }
        examples.add(new Example(
                "PROBE",
                "A PROBE of path 2, whose next PSN is 40 (informative, clause 5.5.1); it always asks for an ACK.",
                ProbePacket.of(CommonHeader.of(DUT, 2, 40).withFlags(PacketFlags.ACK_REQUEST), TIMESTAMP)));
        return examples;
    }

    private static Example nack(final NackCode code) {
        final boolean retry = code == NackCode.RECEIVER_NOT_READY;
        final long psn = 12;
        return new Example(
                "NACK " + code.name(),
                "Rejects PSN 12 of path 0 (stream 0, MSN 6) with " + code.name() + " (0x"
                        + String.format(Locale.ROOT, "%02x", code.value()) + ")"
                        + (code == NackCode.UNKNOWN_CONNECTION
                                ? "; every id echoes the rejected packet, whose destination connection id the sender"
                                        + " knows as its peer's, and the cumulative PSN is the rejected PSN, 12 (clauses"
                                        + " 11.2.3, 9.1.10)."
                                : "; the cumulative PSN, 12, is taken before the PSN is recorded (clause 9.1.6)"
                                        + (retry ? "; retry after 20 microseconds (clause 9.1.9)." : ".")),
                new NackPacket(CommonHeader.of(0x0002_0002L, 0, psn), code, 0, 6, psn, retry ? 20 : 0));
    }

    /** The annotated fields of {@code packet}, in wire order, trailer included. */
    public static List<Field> fields(final Packet packet) {
        final byte[] bytes = packet.toBytes();
        final Opcode opcode = packet.opcode();
        final List<Field> fields = new ArrayList<>();
        fields.add(new Field(0, 1, "version", "major 1, minor 0"));
        fields.add(new Field(1, 1, "opcode", opcode.name()));
        fields.add(new Field(
                2, 2, "flags", PacketFlags.toString(packet.header().flags()).replace("|", " + ")));
        fields.add(new Field(4, 4, "destination connection id", ""));
        fields.add(new Field(8, 1, "path id", ""));
        fields.add(new Field(9, 1, "reserved", ""));
        fields.add(new Field(10, 2, "reserved", ""));
        fields.add(new Field(12, 4, psnName(opcode), ""));
        if (packet instanceof DataPacket data) {
            fields.add(new Field(16, 2, "stream id", ""));
            fields.add(new Field(18, 2, "payload length", ""));
            fields.add(new Field(20, 4, "message sequence number", ""));
            fields.add(new Field(24, 4, "message length", ""));
            fields.add(new Field(28, 4, "message offset", ""));
            fields.add(new Field(32, 4, "transmit timestamp", "nanoseconds modulo 2^32"));
            switch (opcode) {
                case WRITE, WRITE_WITH_IMMEDIATE, READ_REQUEST -> {
                    fields.add(new Field(36, 8, "remote address", ""));
                    fields.add(new Field(44, 4, "remote key", ""));
                    if (opcode == Opcode.WRITE_WITH_IMMEDIATE) {
                        fields.add(new Field(48, 4, "immediate", ""));
                    } else if (opcode == Opcode.READ_REQUEST) {
                        fields.add(new Field(48, 4, "sink handle", ""));
                    }
                }
                case SEND -> fields.add(new Field(36, 4, "receive sequence number", ""));
                case READ_RESPONSE -> fields.add(new Field(36, 4, "sink handle", ""));
                default -> throw new IllegalStateException("not a data opcode: " + opcode);
            }
            if (data.payloadLength() > 0) {
                fields.add(new Field(opcode.headerLength(), data.payloadLength(), "payload", ""));
            }
        } else if (packet instanceof AckPacket ack) {
            fields.add(new Field(16, 4, "echoed timestamp", ""));
            fields.add(new Field(20, 2, "CE count", ""));
            fields.add(new Field(22, 2, "reserved", ""));
            fields.add(new Field(24, 4, "rate hint", "Mbit/s"));
            fields.add(new Field(28, 32, "SACK bitmap", sackMeaning(ack)));
        } else if (packet instanceof NackPacket nack) {
            fields.add(new Field(16, 1, "code", nack.code().name()));
            fields.add(new Field(17, 1, "reserved", ""));
            fields.add(new Field(18, 2, "stream id", ""));
            fields.add(new Field(20, 4, "message sequence number", ""));
            fields.add(new Field(24, 4, "cumulative psn", ""));
            fields.add(new Field(28, 4, "retry after", "microseconds"));
        } else {
            fields.add(new Field(16, 4, "transmit timestamp", "nanoseconds modulo 2^32"));
        }
        fields.add(new Field(bytes.length - 4, 4, "crc32c", "CRC32C of bytes 0 to " + (bytes.length - 5)));
        return fields;
    }

    private static String psnName(final Opcode opcode) {
        return switch (opcode) {
            case ACK -> "psn (cumulative PSN)";
            case NACK -> "psn (rejected PSN)";
            case PROBE -> "psn (next PSN)";
            default -> "psn";
        };
    }

    private static String sackMeaning(final AckPacket ack) {
        final List<String> set = new ArrayList<>();
        final long[] words = ack.sackWords();
        for (int bit = 0; bit < 256; bit++) {
            if ((words[bit >>> 6] >>> (bit & 63) & 1) != 0) {
                set.add(String.valueOf(bit));
            }
        }
        return "bits " + String.join(", ", set) + " set: PSNs cumulative + " + String.join(", + ", set)
                + " received; SACK bit i is bit (i mod 8), least significant first, of byte 28 + i / 8";
    }

    /** The whole annex, as the spec holds it, ending with a newline. */
    public static String annex() {
        final StringBuilder out = new StringBuilder();
        out.append(HEADING).append("\n\n");
        out.append("""
                This annex is generated from the wire codec (`org.mrconf.annex.WorkedExamples`) and checked by the build
                in both directions (`WorkedExamplesTest`): each hex dump decodes to the annotated fields and ends in the
                right CRC32C, and the codec encodes the annotated fields to the same bytes. Implementers can check an
                encoder against it the way RFC test vectors are used. Values are hexadecimal, big-endian (clause 2.4);
                the CRC32C covers bytes 0 to length - 5 (clause 5.6.1). To regenerate it after a codec change, run
                `mvn -pl spec-cases -am test -Dtest=WorkedExamplesTest -Dgolden.update=true` and review the diff.
                """);
        int number = 1;
        for (final Example example : examples()) {
            out.append('\n');
            renderExample(out, "C." + number++, example);
        }
        return out.toString();
    }

    private static void renderExample(final StringBuilder out, final String id, final Example example) {
        final byte[] bytes = example.packet().toBytes();
        out.append("### ").append(id).append(' ').append(example.title()).append("\n\n");
        out.append(example.description()).append(' ').append(bytes.length).append(" bytes.\n\n");
        out.append("| Offset | Size | Field | Value | Meaning |\n");
        out.append("| ---: | ---: | --- | --- | --- |\n");
        for (final Field field : fields(example.packet())) {
            out.append("| ")
                    .append(field.offset())
                    .append(" | ")
                    .append(field.size())
                    .append(" | ")
                    .append(field.name())
                    .append(" | 0x")
                    .append(HEX.formatHex(bytes, field.offset(), field.offset() + field.size()))
                    .append(" | ")
                    .append(meaning(field, bytes))
                    .append(" |\n");
        }
        out.append("\n```text\n");
        for (int line = 0; line < bytes.length; line += 16) {
            out.append(String.format(Locale.ROOT, "%04x ", line));
            for (int i = line; i < Math.min(bytes.length, line + 16); i++) {
                out.append(' ').append(HEX.toHexDigits(bytes[i]));
            }
            out.append('\n');
        }
        out.append("```\n");
    }

    private static String meaning(final Field field, final byte[] bytes) {
        if (field.size() > 8 || field.name().equals("payload")) {
            return field.meaning();
        }
        long value = 0;
        for (int i = 0; i < field.size(); i++) {
            value = value << 8 | (bytes[field.offset() + i] & 0xFF);
        }
        final String decimal = Long.toUnsignedString(value);
        return field.meaning().isEmpty() ? decimal : decimal + ": " + field.meaning();
    }

    private static byte[] bytes(final int length) {
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (0xA0 + i);
        }
        return bytes;
    }
}
