package org.mrconf.pcap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mrconf.wire.AckPacket;
import org.mrconf.wire.CommonHeader;
import org.mrconf.wire.Crc32cTrailer;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.NackPacket;
import org.mrconf.wire.Packet;
import org.mrconf.wire.PacketFlags;
import org.mrconf.wire.ProbePacket;

/**
 * The Wireshark dissector ({@code tools/wireshark/metaroce.lua}) and the codec must read every packet the same way:
 * for a capture that holds every opcode, every NACK code and ACKs with gaps, and for every committed test vector,
 * each field tshark prints through the dissector equals what {@link Packet#fromBytes} decodes, and the dissector's
 * CRC32C verdict and malformed-packet expert info agree with the codec's.
 */
class DissectorFieldsTest {
    private static final Path DISSECTOR = Path.of("..", "tools", "wireshark", "metaroce.lua");
    private static final Path VECTORS = Path.of("..", "test-vectors");
    private static final Path TSHARK = onPath("tshark");

    /** The fields compared, in tshark's -e order; names are the spec's (Table 5-1 to 5-12). */
    private static final List<String> FIELDS = List.of(
            "metaroce.version",
            "metaroce.opcode",
            "metaroce.flags",
            "metaroce.connection_id",
            "metaroce.path_id",
            "metaroce.psn",
            "metaroce.stream_id",
            "metaroce.payload_length",
            "metaroce.msn",
            "metaroce.message_length",
            "metaroce.message_offset",
            "metaroce.transmit_timestamp",
            "metaroce.remote_address",
            "metaroce.remote_key",
            "metaroce.immediate",
            "metaroce.rsn",
            "metaroce.sink_handle",
            "metaroce.payload",
            "metaroce.echoed_timestamp",
            "metaroce.ce_count",
            "metaroce.rate_hint",
            "metaroce.sack.psn",
            "metaroce.nack.code",
            "metaroce.cumulative_psn",
            "metaroce.retry_after",
            "metaroce.crc32c",
            "metaroce.crc32c.status",
            "_ws.expert.message");

    @TempDir
    Path dir;

    @BeforeEach
    void requireTshark() {
        assumeTrue(
                TSHARK != null,
                "tshark is not on PATH, so the dissector cross-check is skipped "
                        + "(install it with `sudo apt-get install tshark`; CI does)");
        assertThat(DISSECTOR).as("the dissector in the project").isRegularFile();
    }

    @Test
    void shouldPrintWhatTheCodecDecodesForEveryPacketTypeAndNackCode() throws Exception {
        final List<Packet> packets = everyPacketType();
        final Path capture = dir.resolve("every-type.pcap");
        try (PcapWriter writer = PcapWriter.create(capture)) {
            for (int i = 0; i < packets.size(); i++) {
                writer.write(frame(packets.get(i).toBytes(), i));
            }
        }
        final List<Map<String, String>> rows = dissect(capture);
        assertThat(rows).hasSize(packets.size());
        for (int i = 0; i < packets.size(); i++) {
            assertThat(rows.get(i))
                    .as("frame %d: %s", i + 1, packets.get(i))
                    .containsAllEntriesOf(expectedFields(packets.get(i)));
            assertThat(rows.get(i).get("_ws.expert.message"))
                    .as("frame %d is well formed", i + 1)
                    .doesNotContain("CRC32C does not match")
                    .doesNotContain("Unknown opcode");
        }
    }

    @Test
    void shouldFlagWhatTheCodecRejects() throws Exception {
        final byte[] good = DataPacket.write(header(0), 1, 2, 8, 0, 9, 0x1000, 0x77, new byte[8])
                .toBytes();
        final byte[] badCrc = good.clone();
        badCrc[badCrc.length - 1] ^= 0x01;
        final byte[] unknownOpcode = good.clone();
        unknownOpcode[1] = 0x7F;
        final byte[] overrun = DataPacket.write(header(0), 1, 2, 4, 0, 9, 0x1000, 0x77, new byte[8])
                .toBytes();
        final byte[] sackBit0 = AckPacket.of(header(0), 1, 0, 100, 0, 3).toBytes();
        final byte[] shortPacket = {0x10, 0x01, 0x00};
        final List<byte[]> bad = List.of(badCrc, unknownOpcode, overrun, sackBit0, shortPacket);
        final Path capture = dir.resolve("malformed.pcap");
        try (PcapWriter writer = PcapWriter.create(capture)) {
            for (int i = 0; i < bad.size(); i++) {
                writer.write(frame(bad.get(i), i));
            }
        }
        final List<Map<String, String>> rows = dissect(capture);
        assertThat(rows).hasSize(bad.size());
        for (final byte[] packet : bad) {
            assertThat(rejectedByCodec(packet))
                    .as("the codec rejects %s", hex(packet))
                    .isTrue();
        }
        assertThat(rows.get(0).get("metaroce.crc32c.status")).isEqualTo("0");
        assertThat(rows.get(0).get("_ws.expert.message")).contains("CRC32C does not match");
        assertThat(rows.get(1).get("_ws.expert.message")).contains("Unknown opcode");
        assertThat(rows.get(2).get("_ws.expert.message")).contains("exceed the message length");
        assertThat(rows.get(3).get("_ws.expert.message")).contains("SACK bit 0 set");
        assertThat(rows.get(4).get("_ws.expert.message")).contains("shorter than its header");
    }

    @Test
    void shouldPrintWhatTheCodecDecodesForEveryCommittedVector() throws Exception {
        final List<Path> captures = committedVectorCaptures();
        assumeTrue(
                !captures.isEmpty(), "test-vectors/ holds no pcap yet; the generated capture above covers every type");
        for (final Path capture : captures) {
            final List<CapturedFrame> frames = PcapReader.readAll(capture);
            final List<Map<String, String>> rows = dissect(capture);
            assertThat(rows).as("frames of %s", capture).hasSize(frames.size());
            for (int i = 0; i < frames.size(); i++) {
                final byte[] bytes = frames.get(i).decode().frame().payloadBytes();
                if (!rejectedByCodec(bytes)) {
                    final Map<String, String> expected = new LinkedHashMap<>(expectedFields(Packet.fromBytes(bytes)));
                    // The trailer as sent: a vector's reserved bits (5.1.1), which the codec's re-encoding drops.
                    expected.put(
                            "metaroce.crc32c",
                            hex(
                                    Integer.toUnsignedLong(
                                            ByteBuffer.wrap(bytes).getInt(bytes.length - Crc32cTrailer.LENGTH)),
                                    8));
                    assertThat(rows.get(i)).as("%s frame %d", capture, i + 1).containsAllEntriesOf(expected);
                }
            }
        }
    }

    /** Every opcode, every flag, every NACK code, ACKs with no gap, one gap and many, field values at their edges. */
    private static List<Packet> everyPacketType() {
        final List<Packet> packets = new ArrayList<>();
        final byte[] payload = new byte[] {(byte) 0xf0, (byte) 0xf1, (byte) 0xf2, (byte) 0xf3, 0, 1};
        packets.add(DataPacket.write(
                header(PacketFlags.RETRANSMISSION), 0xAABB, 1, 4096, 1024, 0xCAFEBABEL, -1L, 0xDEADBEEFL, payload));
        packets.add(DataPacket.write(header(0), 0, 0, 0, 0, 0, 0, 0, new byte[0]));
        packets.add(DataPacket.writeWithImmediate(
                header(PacketFlags.ACK_REQUEST),
                3,
                0xFFFF_FFFFL,
                6,
                0,
                7,
                0x0123_4567_89AB_CDEFL,
                0x77,
                0xFEEDFACEL,
                payload));
        packets.add(DataPacket.send(header(0), 65535, 9, 6, 0, 8, 0x1357_9BDFL, payload));
        packets.add(
                DataPacket.readRequest(header(PacketFlags.ACK_REQUEST), 2, 3, 1 << 20, 5, 0x7000_0000L, 0x42, 0xABCD));
        packets.add(DataPacket.readResponse(header(0), 2, 3, 1 << 20, 4096, 6, 0xABCD, payload));
        packets.add(AckPacket.of(header(0), 0xCAFEBABEL, 0, 0xFFFF_FFFFL));
        packets.add(AckPacket.of(header(0).withPsn(0xFFFF_FFF0L), 1, 65535, 0, 1, 2, 17, 64, 127, 128, 200, 255));
        packets.add(AckPacket.of(header(0), 2, 3, 100_000, 2));
        for (final NackCode code : NackCode.values()) {
            packets.add(new NackPacket(header(0), code, code.value(), 100 + code.value(), 0xFFFF_FFFFL, 250));
        }
        packets.add(ProbePacket.of(header(PacketFlags.ACK_REQUEST), 0x1234_5678L));
        return packets;
    }

    /** What tshark must print for {@code packet}: the codec's field values, formatted as tshark formats them. */
    private static Map<String, String> expectedFields(final Packet packet) {
        final Map<String, String> expected = new LinkedHashMap<>();
        // Every field the packet's opcode does not carry must be absent: tshark prints it empty.
        FIELDS.stream().filter(name -> name.startsWith("metaroce.")).forEach(name -> expected.put(name, ""));
        final CommonHeader h = packet.header();
        expected.put("metaroce.version", hex(h.version(), 2));
        expected.put("metaroce.opcode", hex(packet.opcode().value(), 2));
        expected.put("metaroce.flags", hex(h.flags(), 4));
        expected.put("metaroce.connection_id", hex(h.destinationConnectionId(), 8));
        expected.put("metaroce.path_id", Integer.toString(h.pathId()));
        expected.put("metaroce.psn", Long.toString(h.psn()));
        final byte[] bytes = packet.toBytes();
        expected.put(
                "metaroce.crc32c",
                hex(Integer.toUnsignedLong(ByteBuffer.wrap(bytes).getInt(bytes.length - Crc32cTrailer.LENGTH)), 8));
        expected.put("metaroce.crc32c.status", "1");
        if (packet instanceof DataPacket d) {
            expected.put("metaroce.stream_id", Integer.toString(d.streamId()));
            expected.put("metaroce.payload_length", Integer.toString(d.payloadLength()));
            expected.put("metaroce.msn", Long.toString(d.messageSequenceNumber()));
            expected.put("metaroce.message_length", Long.toString(d.messageLength()));
            expected.put("metaroce.message_offset", Long.toString(d.messageOffset()));
            expected.put("metaroce.transmit_timestamp", Long.toString(d.transmitTimestamp()));
            expected.put(
                    "metaroce.payload",
                    d.payloadLength() == 0 ? "" : HexFormat.of().formatHex(d.payload()));
            switch (d.opcode()) {
                case WRITE, WRITE_WITH_IMMEDIATE, READ_REQUEST -> {
                    expected.put("metaroce.remote_address", hex(d.remoteAddress(), 16));
                    expected.put("metaroce.remote_key", hex(d.remoteKey(), 8));
                    expected.put(
                            "metaroce.immediate",
                            d.opcode() == org.mrconf.wire.Opcode.WRITE_WITH_IMMEDIATE ? hex(d.immediate(), 8) : "");
                    expected.put(
                            "metaroce.sink_handle",
                            d.opcode() == org.mrconf.wire.Opcode.READ_REQUEST ? hex(d.sinkHandle(), 8) : "");
                }
                case SEND -> expected.put("metaroce.rsn", Long.toString(d.receiveSequenceNumber()));
                case READ_RESPONSE -> expected.put("metaroce.sink_handle", hex(d.sinkHandle(), 8));
                default -> throw new IllegalStateException(d.opcode().toString());
            }
        } else if (packet instanceof AckPacket a) {
            expected.put("metaroce.echoed_timestamp", Long.toString(a.echoedTimestamp()));
            expected.put("metaroce.ce_count", Integer.toString(a.ceCount()));
            expected.put("metaroce.rate_hint", Long.toString(a.rateHint()));
            final List<String> received = new ArrayList<>();
            for (final int bit : a.sackBits()) {
                received.add(Long.toString((a.cumulativePsn() + bit) & 0xFFFF_FFFFL));
            }
            expected.put("metaroce.sack.psn", String.join(",", received));
        } else if (packet instanceof NackPacket n) {
            expected.put("metaroce.nack.code", hex(n.code().value(), 2));
            expected.put("metaroce.stream_id", Integer.toString(n.streamId()));
            expected.put("metaroce.msn", Long.toString(n.messageSequenceNumber()));
            expected.put("metaroce.cumulative_psn", Long.toString(n.cumulativePsn()));
            expected.put("metaroce.retry_after", Long.toString(n.retryAfter()));
        } else if (packet instanceof ProbePacket p) {
            expected.put("metaroce.transmit_timestamp", Long.toString(p.transmitTimestamp()));
        }
        return expected;
    }

    private List<Map<String, String>> dissect(final Path capture) throws Exception {
        final List<String> command = new ArrayList<>(List.of(
                TSHARK.toString(),
                "-n",
                "-X",
                "lua_script:" + DISSECTOR.toAbsolutePath().normalize(),
                "-r",
                capture.toString(),
                "-T",
                "fields",
                "-E",
                "separator=/t",
                "-E",
                "occurrence=a",
                "-E",
                "aggregator=,"));
        for (final String field : FIELDS) {
            command.add("-e");
            command.add(field);
        }
        final Path out = dir.resolve(capture.getFileName() + ".tsv");
        final Path err = dir.resolve(capture.getFileName() + ".err");
        final Process process = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("tshark finished").isTrue();
        final String stderr = Files.readString(err, StandardCharsets.UTF_8);
        assertThat(process.exitValue())
                .as("tshark exit code; stderr: %s", stderr)
                .isZero();
        assertThat(stderr).as("tshark stderr (a Lua error shows here)").doesNotContainIgnoringCase("lua");
        final List<Map<String, String>> rows = new ArrayList<>();
        for (final String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
            final String[] cells = line.split("\t", -1);
            final Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < FIELDS.size(); i++) {
                row.put(FIELDS.get(i), i < cells.length ? cells[i] : "");
            }
            rows.add(row);
        }
        return rows;
    }

    private static UdpFrame frame(final byte[] packet, final int index) {
        return UdpFrame.builder()
                .ips("192.0.2.1", "192.0.2.2")
                .srcPort(49_152 + index)
                .dstPort(UdpFrame.METAROCE_PORT)
                .ecn(Ecn.ECT_0)
                .payload(packet)
                .timestamp(Instant.ofEpochSecond(1_700_000_000L, index * 1_000L))
                .build();
    }

    private static CommonHeader header(final int flags) {
        return CommonHeader.of(0x1122_3344L, 5, 0x6677_8899L).withFlags(flags);
    }

    private static boolean rejectedByCodec(final byte[] packet) {
        try {
            Packet.fromBytes(packet);
            return false;
        } catch (final RuntimeException e) {
            return true;
        }
    }

    private static List<Path> committedVectorCaptures() throws Exception {
        if (!Files.isDirectory(VECTORS)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(VECTORS)) {
            return files.filter(p -> p.toString().endsWith(".pcap")).sorted().toList();
        }
    }

    private static String hex(final long value, final int digits) {
        return "0x" + String.format("%0" + digits + "x", value);
    }

    private static String hex(final byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    private static Path onPath(final String name) {
        for (final String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            final Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
