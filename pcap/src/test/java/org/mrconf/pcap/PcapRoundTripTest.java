package org.mrconf.pcap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PcapRoundTripTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 18, 1472, 9000})
    void shouldRoundTripIpv4Frame(int size) throws Exception {
        UdpFrame f = Frames.ipv4(size);
        Path file = dir.resolve("v4.pcap");

        try (PcapWriter w = PcapWriter.create(file)) {
            w.write(f);
        }
        List<CapturedFrame> frames = PcapReader.readAll(file);

        assertThat(frames).hasSize(1);
        CapturedFrame c = frames.get(0);
        assertThat(c.capturedLength()).isEqualTo(14 + 20 + 8 + size).isEqualTo(c.originalLength());
        assertThat(c.isTruncated()).isFalse();
        assertThat(c.bytes()).isEqualTo(FrameCodec.encode(f));
        DecodedFrame d = c.decode();
        assertThat(d.frame()).isEqualTo(f);
        assertThat(d.checksumsOk()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 18, 1452, 9000})
    void shouldRoundTripIpv6Frame(int size) throws Exception {
        UdpFrame f = Frames.ipv6(size);
        Path file = dir.resolve("v6.pcap");

        try (PcapWriter w = PcapWriter.create(file)) {
            w.write(f);
        }
        List<CapturedFrame> frames = PcapReader.readAll(file);

        assertThat(frames).hasSize(1);
        assertThat(frames.get(0).capturedLength()).isEqualTo(14 + 40 + 8 + size);
        DecodedFrame d = frames.get(0).decode();
        assertThat(d.frame()).isEqualTo(f);
        assertThat(d.udpChecksum()).isEqualTo(ChecksumVerdict.GOOD);
    }

    @Test
    void shouldRoundTripManyMixedFramesInOrderWithEveryEcnValue() throws Exception {
        List<UdpFrame> sent = new ArrayList<>();
        int i = 0;
        for (Ecn ecn : Ecn.values()) {
            for (int size : new int[] {0, 64, 9000}) {
                Instant ts = Instant.ofEpochSecond(1_700_000_000L + i, i * 1_000_003L);
                sent.add(Frames.ipv4(size).toBuilder().ecn(ecn).timestamp(ts).build());
                sent.add(Frames.ipv6(size).toBuilder()
                        .ecn(ecn)
                        .timestamp(ts.plusNanos(1))
                        .build());
                i++;
            }
        }
        Path file = dir.resolve("mixed.pcap");
        try (PcapWriter w = PcapWriter.create(file)) {
            sent.forEach(w::write);
            assertThat(w.framesWritten()).isEqualTo(sent.size());
        }

        List<UdpFrame> received = new ArrayList<>();
        try (PcapReader r = PcapReader.open(file)) {
            assertThat(r.format()).isEqualTo(CaptureFormat.PCAP_NANO);
            for (CapturedFrame c = r.next(); c != null; c = r.next()) {
                assertThat(c.index()).isEqualTo(received.size());
                received.add(c.decode().frame());
            }
            assertThat(r.next()).as("stays at end").isNull();
        }

        assertThat(received).containsExactlyElementsOf(sent);
    }

    @Test
    void shouldPreserveNanosecondTimestampsInNanosecondPcap() throws Exception {
        Instant[] stamps = {
            Instant.EPOCH,
            Instant.ofEpochSecond(0, 1),
            Instant.ofEpochSecond(1_700_000_000L, 999_999_999L),
            Instant.ofEpochSecond(1_700_000_000L, 123_456_789L),
            Instant.ofEpochSecond(0x7FFF_FFFFL, 5), // 2038
            Instant.ofEpochSecond(0xFFFF_FFFFL, 999_999_999L), // last pcap second, 2106
        };
        Path file = dir.resolve("ns.pcap");
        try (PcapWriter w = PcapWriter.create(file, TimestampResolution.NANO)) {
            for (Instant ts : stamps) {
                w.write(Frames.ipv4(8).withTimestamp(ts));
            }
        }

        assertThat(PcapReader.readAll(file))
                .extracting(CapturedFrame::timestamp)
                .containsExactly(stamps);
        assertThat(magic(file)).isEqualTo(0xA1B23C4D);
    }

    @Test
    void shouldTruncateToMicrosecondsInMicrosecondPcap() throws Exception {
        Path file = dir.resolve("us.pcap");
        try (PcapWriter w = PcapWriter.create(file, TimestampResolution.MICRO)) {
            w.write(Frames.ipv4(8).withTimestamp(Instant.ofEpochSecond(1_700_000_000L, 123_456_789L)));
        }

        try (PcapReader r = PcapReader.open(file)) {
            assertThat(r.format()).isEqualTo(CaptureFormat.PCAP_MICRO);
            assertThat(r.next().timestamp()).isEqualTo(Instant.ofEpochSecond(1_700_000_000L, 123_456_000L));
        }
        assertThat(magic(file)).isEqualTo(0xA1B2C3D4);
    }

    @Test
    void shouldWriteEthernetLinkTypeAndLargeSnaplenInFileHeader() throws Exception {
        Path file = dir.resolve("hdr.pcap");
        try (PcapWriter w = PcapWriter.create(file)) {
            w.write(Frames.ipv4(1));
        }
        ByteBuffer h = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.nativeOrder());

        assertThat(h.getShort(4)).isEqualTo((short) 2); // version 2.4
        assertThat(h.getShort(6)).isEqualTo((short) 4);
        assertThat(h.getInt(16)).isEqualTo(PcapWriter.SNAPLEN);
        assertThat(h.getInt(20)).isEqualTo(1); // LINKTYPE_ETHERNET
    }

    @Test
    void shouldWriteRawAndMalformedFramesVerbatim() throws Exception {
        byte[] garbage = {1, 2, 3, 4, 5};
        UdpFrame f = Frames.ipv6(40);
        EncodeOptions bad = EncodeOptions.DEFAULT.withUdpChecksum(ChecksumMode.CORRUPT);
        Path file = dir.resolve("raw.pcap");
        try (PcapWriter w = PcapWriter.create(file)) {
            w.writeRaw(garbage, Instant.ofEpochSecond(5));
            w.write(f, bad);
        }

        List<CapturedFrame> frames = PcapReader.readAll(file);

        assertThat(frames.get(0).bytes()).isEqualTo(garbage);
        assertThat(frames.get(0).timestamp()).isEqualTo(Instant.ofEpochSecond(5));
        assertThatThrownBy(() -> frames.get(0).decode()).isInstanceOf(FrameDecodeException.class);
        assertThat(frames.get(1).bytes()).isEqualTo(FrameCodec.encode(f, bad));
        assertThat(frames.get(1).decode().udpChecksumOk()).isFalse();
    }

    @Test
    void shouldWriteAnEmptyCaptureThatReadsBackEmpty() throws Exception {
        Path file = dir.resolve("empty-capture.pcap");
        PcapWriter.create(file).close();

        assertThat(Files.size(file)).isEqualTo(24);
        assertThat(PcapReader.readAll(file)).isEmpty();
    }

    @Test
    void shouldRejectTimestampsPcapCannotHoldAndUseAfterClose() throws Exception {
        PcapWriter w = PcapWriter.create(dir.resolve("range.pcap"));

        assertThatThrownBy(() -> w.writeRaw(new byte[60], Instant.ofEpochSecond(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1970..2106");
        assertThatThrownBy(() -> w.writeRaw(new byte[60], Instant.ofEpochSecond(1L << 32)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> w.writeRaw(new byte[PcapWriter.SNAPLEN + 1], Instant.EPOCH))
                .hasMessageContaining("snapshot length");
        w.close();
        w.close(); // idempotent
        assertThatThrownBy(() -> w.write(Frames.ipv4(1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void shouldRoundTripPcapngWithNanosecondTimestamps() throws Exception {
        List<UdpFrame> sent = List.of(
                Frames.ipv4(0).withTimestamp(Instant.ofEpochSecond(1_700_000_000L, 123_456_789L)),
                Frames.ipv6(9000).withTimestamp(Instant.ofEpochSecond(0xFFFF_FFFFL, 999_999_999L)),
                Frames.ipv4(1).withTimestamp(Instant.EPOCH),
                Frames.ipv6(3).withTimestamp(Instant.ofEpochSecond(5, 1)));
        Path file = dir.resolve("rt.pcapng");
        try (PcapWriter w = PcapWriter.create(file, CaptureFormat.PCAPNG)) {
            assertThat(w.format()).isEqualTo(CaptureFormat.PCAPNG);
            assertThat(w.resolution()).isEqualTo(TimestampResolution.NANO);
            sent.forEach(w::write);
            w.writeRaw(new byte[] {1, 2, 3}, Instant.ofEpochSecond(7)); // padding to 4 bytes
        }

        try (PcapReader r = PcapReader.open(file)) {
            assertThat(r.format()).isEqualTo(CaptureFormat.PCAPNG);
            List<CapturedFrame> frames = r.readAll();
            assertThat(frames).hasSize(5);
            for (int i = 0; i < sent.size(); i++) {
                assertThat(frames.get(i).decode().frame()).isEqualTo(sent.get(i));
                assertThat(frames.get(i).bytes()).isEqualTo(FrameCodec.encode(sent.get(i)));
            }
            assertThat(frames.get(4).bytes()).containsExactly(1, 2, 3);
            assertThat(frames.get(4).timestamp()).isEqualTo(Instant.ofEpochSecond(7));
        }
    }

    @Test
    void shouldWriteAnEmptyPcapngThatReadsBackEmpty() throws Exception {
        Path file = dir.resolve("empty.pcapng");
        PcapWriter.create(file, CaptureFormat.PCAPNG).close();

        assertThat(Files.size(file)).isEqualTo(28 + 32); // SHB and IDB
        assertThat(PcapReader.readAll(file)).isEmpty();
    }

    @Test
    void shouldRoundTripMicrosecondPcapInEitherResolutionApi() throws Exception {
        Path file = dir.resolve("us2.pcap");
        try (PcapWriter w = PcapWriter.create(file, CaptureFormat.PCAP_MICRO)) {
            assertThat(w.resolution()).isEqualTo(TimestampResolution.MICRO);
            w.write(Frames.ipv6(8).withTimestamp(Instant.ofEpochSecond(9, 999_999_999L)));
        }

        assertThat(PcapReader.readAll(file).get(0).timestamp()).isEqualTo(Instant.ofEpochSecond(9, 999_999_000L));
    }

    @Test
    void shouldReadLargeCapturesBeyondTheWriteBuffer() throws Exception {
        Path file = dir.resolve("many.pcap");
        try (PcapWriter w = PcapWriter.create(file)) {
            for (int i = 0; i < 200; i++) {
                w.write(Frames.ipv4(i % 2 == 0 ? 9000 : 10).withTimestamp(Instant.ofEpochSecond(i)));
            }
        }

        List<CapturedFrame> frames = PcapReader.readAll(file);
        assertThat(frames).hasSize(200);
        assertThat(frames.get(199).timestamp()).isEqualTo(Instant.ofEpochSecond(199));
        assertThat(frames.get(198).capturedLength()).isEqualTo(14 + 20 + 8 + 9000);
    }

    private static int magic(Path file) throws Exception {
        // libpcap writes the header in host byte order; read it back the same way.
        return ByteBuffer.wrap(Files.readAllBytes(file), 0, 4)
                .order(ByteOrder.nativeOrder())
                .getInt();
    }
}
