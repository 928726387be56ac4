package org.mrconf.pcap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CaptureFileErrorTest {

    @TempDir
    Path dir;

    @Test
    void shouldRejectMissingFile() {
        Path file = dir.resolve("nope.pcap");

        assertThatThrownBy(() -> PcapReader.open(file))
                .isInstanceOfSatisfying(
                        CaptureFileException.class, e -> assertThat(e.file()).isEqualTo(file))
                .hasMessageStartingWith(file.toString())
                .hasMessageContaining("does not exist");
    }

    @Test
    void shouldRejectEmptyFile() throws Exception {
        Path file = Files.createFile(dir.resolve("empty.pcap"));

        assertThatThrownBy(() -> PcapReader.open(file))
                .isInstanceOf(CaptureFileException.class)
                .hasMessageContaining("empty.pcap")
                .hasMessageContaining("empty (0 bytes)");
    }

    @Test
    void shouldRejectTextFileWithBadMagic() throws Exception {
        Path file = dir.resolve("notes.txt");
        Files.writeString(file, "hello, this is not a capture\n");

        assertThatThrownBy(() -> PcapReader.open(file))
                .isInstanceOf(CaptureFileException.class)
                .hasMessageContaining("notes.txt")
                .hasMessageContaining("not a pcap or pcapng capture: bad magic number 0x68656c6c")
                .hasMessageContaining("starts with text \"hello, this is n\"");
    }

    @Test
    void shouldRejectJsonFile() throws Exception {
        Path file = dir.resolve("report.json");
        Files.writeString(file, "{\n  \"frames\": []\n}\n");

        assertThatThrownBy(() -> PcapReader.open(file))
                .isInstanceOf(CaptureFileException.class)
                .hasMessageContaining("report.json")
                .hasMessageContaining("bad magic number 0x7b0a2020")
                .hasMessageContaining("JSON");
    }

    @Test
    void shouldRejectBinaryNonCaptureWithoutTextHint() throws Exception {
        Path file = dir.resolve("blob.bin");
        Files.write(file, new byte[] {0, 1, 2, 3, (byte) 0xFF, 9, 9, 9});

        assertThatThrownBy(() -> PcapReader.open(file))
                .isInstanceOf(CaptureFileException.class)
                .hasMessageEndingWith("bad magic number 0x00010203");
    }

    @Test
    void shouldRejectTinyFile() throws Exception {
        Path file = dir.resolve("tiny.pcap");
        Files.write(file, new byte[] {(byte) 0xD4, (byte) 0xC3});

        assertThatThrownBy(() -> PcapReader.open(file))
                .isInstanceOf(CaptureFileException.class)
                .hasMessageContaining("tiny.pcap")
                .hasMessageContaining("only 2 bytes");
    }

    @Test
    void shouldRejectDirectory() {
        assertThatThrownBy(() -> PcapReader.open(dir))
                .isInstanceOf(CaptureFileException.class)
                .hasMessageContaining("is a directory");
    }

    @Test
    void shouldRejectPcapTruncatedInsideFileHeader() throws Exception {
        Path file = dir.resolve("cut-header.pcap");
        Files.write(file, Arrays.copyOf(validPcap(), 10));

        assertThatThrownBy(() -> PcapReader.open(file))
                .isInstanceOf(CaptureFileException.class)
                .hasMessageContaining("cut-header.pcap")
                .hasMessageContaining("unreadable pcap capture")
                .hasMessageContaining("truncated");
    }

    @Test
    void shouldRejectPcapTruncatedInsideARecordAfterReadingTheGoodOnes() throws Exception {
        byte[] whole = validPcap(); // two frames
        Path file = dir.resolve("cut-record.pcap");
        Files.write(file, Arrays.copyOf(whole, whole.length - 7));

        try (PcapReader r = PcapReader.open(file)) {
            assertThat(r.next()).isNotNull();
            assertThatThrownBy(r::next)
                    .isInstanceOf(CaptureFileException.class)
                    .hasMessageContaining("cut-record.pcap")
                    .hasMessageContaining("damaged record 1")
                    .hasMessageContaining("truncated");
            assertThat(r.next()).as("no garbage after a damaged record").isNull();
        }
    }

    @Test
    void shouldRejectPcapTruncatedInsideARecordHeader() throws Exception {
        byte[] whole = validPcap();
        int firstRecordEnd = 24 + 16 + FrameCodec.encode(Frames.ipv4(10)).length;
        Path file = dir.resolve("cut-rechdr.pcap");
        Files.write(file, Arrays.copyOf(whole, firstRecordEnd + 5));

        assertThatThrownBy(() -> PcapReader.readAll(file))
                .isInstanceOf(CaptureFileException.class)
                .hasMessageContaining("cut-rechdr.pcap");
    }

    @Test
    void shouldRejectTruncatedPcapng() throws Exception {
        byte[] whole = new PcapngBuilder(1, 9)
                .packet(FrameCodec.encode(Frames.ipv4(10)), Instant.EPOCH)
                .build();
        Path file = dir.resolve("cut.pcapng");
        Files.write(file, Arrays.copyOf(whole, whole.length - 9));

        assertThatThrownBy(() -> PcapReader.readAll(file))
                .isInstanceOf(CaptureFileException.class)
                .hasMessageContaining("cut.pcapng");
    }

    @Test
    void shouldFailToCreateCaptureInMissingDirectory() {
        Path file = dir.resolve("no/such/dir/out.pcap");

        assertThatThrownBy(() -> PcapWriter.create(file))
                .isInstanceOf(CaptureFileException.class)
                .hasMessageContaining("out.pcap")
                .hasMessageContaining("cannot create pcap file");
    }

    @Test
    void shouldRejectTextFileEvenWhenItSaysPcap() throws Exception {
        // A file whose first bytes are text is never a capture, even if it says "pcap".
        Path file = dir.resolve("pcap.txt");
        Files.write(file, "pcap".getBytes(StandardCharsets.US_ASCII));

        assertThatThrownBy(() -> PcapReader.open(file)).hasMessageContaining("bad magic number 0x70636170");
    }

    @Test
    void shouldRefuseAHugeRecordLengthWithoutAllocatingIt() throws Exception {
        byte[] whole = validPcap();
        // The first record's captured length (offset 24 + 8), little-endian as this host wrote it: 0x7FFFFFF0.
        java.nio.ByteBuffer.wrap(whole).order(java.nio.ByteOrder.nativeOrder()).putInt(32, 0x7FFF_FFF0);
        Path file = dir.resolve("huge.pcap");
        Files.write(file, whole);

        assertThatThrownBy(() -> PcapReader.readAll(file))
                .isInstanceOf(CaptureFileException.class)
                .hasMessageContaining("huge.pcap")
                .hasMessageContaining("damaged record 0")
                .hasMessageContaining("at offset 32")
                .hasMessageContaining("captured length 2147483632 exceeds the maximum record length 262144");
    }

    @Test
    void shouldRefuseARecordOverTheDeclaredMaximum() throws Exception {
        Path file = dir.resolve("max.pcap");
        Files.write(file, validPcap());

        try (PcapReader r = PcapReader.open(file, 20)) {
            assertThatThrownBy(r::next)
                    .isInstanceOf(CaptureFileException.class)
                    .hasMessageContaining("exceeds the maximum record length 20 bytes");
            assertThat(r.next()).isNull();
        }
    }

    @Test
    void shouldRefuseAHugePcapngPacketLength() throws Exception {
        byte[] whole = new PcapngBuilder(1, 9)
                .packet(FrameCodec.encode(Frames.ipv4(10)), Instant.EPOCH)
                .build();
        // SHB 28 + IDB 32 bytes, then the EPB: its captured length is at +20.
        java.nio.ByteBuffer.wrap(whole).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(28 + 32 + 20, 1 << 30);
        Path file = dir.resolve("huge.pcapng");
        Files.write(file, whole);

        assertThatThrownBy(() -> PcapReader.readAll(file))
                .isInstanceOf(CaptureFileException.class)
                .hasMessageContaining("huge.pcapng")
                .hasMessageContaining("at offset 80")
                .hasMessageContaining("captured length 1073741824 exceeds the maximum record length");
    }

    @Test
    void shouldRejectABadPcapngByteOrderMagic() throws Exception {
        byte[] whole = new PcapngBuilder(1, 9).build();
        whole[8] = 0x11;
        Path file = dir.resolve("bom.pcapng");
        Files.write(file, whole);

        assertThatThrownBy(() -> PcapReader.open(file))
                .isInstanceOf(CaptureFileException.class)
                .hasMessageContaining("bom.pcapng")
                .hasMessageContaining("byte-order magic 0x11")
                .hasMessageContaining("at offset 8");
    }

    @Test
    void shouldRejectAPcapngBlockLengthThatIsNotAMultipleOfFour() throws Exception {
        byte[] whole = new PcapngBuilder(1, 9)
                .packet(FrameCodec.encode(Frames.ipv4(10)), Instant.EPOCH)
                .build();
        java.nio.ByteBuffer.wrap(whole).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(28 + 32 + 4, 99);
        Path file = dir.resolve("odd.pcapng");
        Files.write(file, whole);

        assertThatThrownBy(() -> PcapReader.readAll(file))
                .isInstanceOf(CaptureFileException.class)
                .hasMessageContaining("at offset 64")
                .hasMessageContaining("block total length 99 is not a multiple of 4");
    }

    @Test
    void shouldRejectAPacketOfAnInterfaceTheSectionDoesNotDescribe() throws Exception {
        byte[] whole = new PcapngBuilder(1, 9)
                .packet(FrameCodec.encode(Frames.ipv4(10)), Instant.EPOCH)
                .build();
        java.nio.ByteBuffer.wrap(whole).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(28 + 32 + 8, 3);
        Path file = dir.resolve("itf.pcapng");
        Files.write(file, whole);

        assertThatThrownBy(() -> PcapReader.readAll(file))
                .isInstanceOf(CaptureFileException.class)
                .hasMessageContaining("names interface 3, but the section describes 1");
    }

    @Test
    void shouldRejectASubSecondFieldOfASecondOrMore() throws Exception {
        byte[] whole = validPcap();
        java.nio.ByteBuffer.wrap(whole).order(java.nio.ByteOrder.nativeOrder()).putInt(28, 1_000_000_000);
        Path file = dir.resolve("ts.pcap");
        Files.write(file, whole);

        assertThatThrownBy(() -> PcapReader.readAll(file))
                .isInstanceOf(CaptureFileException.class)
                .hasMessageContaining("at offset 28: sub-second field 1000000000 is not below 1000000000");
    }

    @Test
    void shouldRejectAClassicCaptureOfAnotherLinkTypeNamingIt() throws Exception {
        byte[] whole = validPcap();
        java.nio.ByteBuffer.wrap(whole).order(java.nio.ByteOrder.nativeOrder()).putInt(20, 101);
        Path file = dir.resolve("raw-ip.pcap");
        Files.write(file, whole);

        assertThatThrownBy(() -> PcapReader.open(file))
                .isInstanceOf(CaptureFileException.class)
                .hasMessageContaining("link type 101 is not supported; only Ethernet")
                .hasMessageEndingWith("(101 is LINKTYPE_RAW, link type field at offset 20)");
    }

    @Test
    void shouldRejectAPacketBlockBeforeAnyInterface() throws Exception {
        byte[] shb = new PcapngBuilder(1, 9).build();
        byte[] withPacket = new PcapngBuilder(1, 9)
                .packet(FrameCodec.encode(Frames.ipv4(10)), Instant.EPOCH)
                .build();
        // The SHB, then the EPB without the IDB between them.
        byte[] file = new byte[28 + withPacket.length - shb.length];
        System.arraycopy(shb, 0, file, 0, 28);
        System.arraycopy(withPacket, shb.length, file, 28, withPacket.length - shb.length);
        Path path = dir.resolve("no-idb.pcapng");
        Files.write(path, file);

        assertThatThrownBy(() -> PcapReader.open(path))
                .isInstanceOf(CaptureFileException.class)
                .hasMessageContaining("packet block at offset 28 before any Interface Description Block");
    }

    private byte[] validPcap() throws Exception {
        Path file = dir.resolve("valid-" + System.nanoTime() + ".pcap");
        try (PcapWriter w = PcapWriter.create(file)) {
            w.write(Frames.ipv4(10));
            w.write(Frames.ipv6(10));
        }
        return Files.readAllBytes(file);
    }
}
