package org.mrconf.pcap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PcapngReadTest {

    @TempDir
    Path dir;

    @Test
    void shouldReadHandBuiltPcapngWithNanosecondResolution() throws Exception {
        UdpFrame a = Frames.ipv4(100);
        UdpFrame b = Frames.ipv6(9000);
        UdpFrame c = Frames.ipv4(3).toBuilder()
                .ecn(Ecn.CE)
                .timestamp(Instant.ofEpochSecond(1_800_000_000L, 1))
                .build();
        Path file = dir.resolve("hand.pcapng");
        Files.write(
                file,
                new PcapngBuilder(1, 9)
                        .packet(FrameCodec.encode(a), a.timestamp())
                        .packet(FrameCodec.encode(b), b.timestamp())
                        .packet(FrameCodec.encode(c), c.timestamp())
                        .build());

        try (PcapReader r = PcapReader.open(file)) {
            assertThat(r.format()).isEqualTo(CaptureFormat.PCAPNG);
            List<CapturedFrame> frames = r.readAll();

            assertThat(frames).hasSize(3);
            assertThat(frames.get(0).decode().frame()).isEqualTo(a);
            assertThat(frames.get(1).decode().frame()).isEqualTo(b);
            assertThat(frames.get(2).decode().frame()).isEqualTo(c);
            assertThat(frames)
                    .allSatisfy(f -> assertThat(f.decode().checksumsOk()).isTrue());
        }
    }

    @Test
    void shouldReadPcapngWithDefaultMicrosecondResolution() throws Exception {
        UdpFrame a = Frames.ipv6(20); // timestamp has nanoseconds 987_654_321
        Path file = dir.resolve("default-res.pcapng");
        Files.write(
                file,
                new PcapngBuilder(1, -1)
                        .packet(FrameCodec.encode(a), a.timestamp())
                        .build());

        CapturedFrame f = PcapReader.readAll(file).get(0);

        assertThat(f.timestamp()).isEqualTo(Instant.ofEpochSecond(a.timestamp().getEpochSecond(), 987_654_000L));
        assertThat(f.decode().frame()).isEqualTo(a.withTimestamp(f.timestamp()));
    }

    @Test
    void shouldReadEmptyPcapngSection() throws Exception {
        Path file = dir.resolve("no-packets.pcapng");
        Files.write(file, new PcapngBuilder(1, 9).build());

        assertThat(PcapReader.readAll(file)).isEmpty();
    }

    @Test
    void shouldRejectNonEthernetPcapngNamingTheLinkType() throws Exception {
        Path file = dir.resolve("sll.pcapng");
        Files.write(
                file,
                new PcapngBuilder(113, 9).packet(new byte[20], Instant.EPOCH).build());

        assertThatThrownBy(() -> PcapReader.open(file))
                .isInstanceOf(CaptureFileException.class)
                .hasMessageContaining("sll.pcapng")
                .hasMessageContaining("link type 113")
                .hasMessageContaining("only Ethernet");
    }
}
