package org.mrconf.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mrconf.pcap.CapturedFrame;
import org.mrconf.pcap.DecodedFrame;
import org.mrconf.pcap.Ecn;
import org.mrconf.pcap.PcapReader;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Evidence;
import org.mrconf.verdict.RunRecord;

/** The evidence pcap slices hold exactly the evidence packets, framed so that Wireshark reads them as good. */
class PcapSlicesTest {
    private static final String FAILED = "evidence/SelectiveRetransmissionCase.resendsExactlyTheMissingPacket.pcap";

    @TempDir
    Path dir;

    @Test
    void shouldWriteEachEvidencePacketInItsDirection() throws Exception {
        final RunRecord record = SampleRuns.finished();
        ReportWriters.writeAll(dir, record);
        final CaseResult failed = record.cases().get(1);

        final List<DecodedFrame> frames = new ArrayList<>();
        for (final CapturedFrame f : PcapReader.readAll(dir.resolve(FAILED))) {
            frames.add(f.decode());
        }
        assertThat(frames).hasSize(failed.evidence().packets().size());
        for (int i = 0; i < frames.size(); i++) {
            final Evidence.PacketRecord p = failed.evidence().packets().get(i);
            final DecodedFrame f = frames.get(i);
            assertThat(java.util.HexFormat.of().formatHex(f.frame().payloadBytes()))
                    .isEqualTo(p.hex());
            assertThat(f.frame().srcIp())
                    .isEqualTo(
                            p.direction().equals(PcapSlices.TESTER_TO_DUT) ? PcapSlices.TESTER_IP : PcapSlices.DUT_IP);
            assertThat(f.checksumsOk()).isTrue();
            assertThat(f.frame().timestamp()).isEqualTo(failed.startedAt().plusNanos(p.timeNs()));
        }
    }

    @Test
    void shouldBeReadByTsharkWithGoodChecksums() throws Exception {
        final Path tshark = onPath("tshark");
        assumeTrue(tshark != null, "tshark is not on PATH (install it with `apt-get install tshark`; .ci/run does)");
        ReportWriters.writeAll(dir, SampleRuns.finished());

        final List<String> cmd = List.of(
                tshark.toString(),
                "-n",
                "-r",
                dir.resolve(FAILED).toString(),
                "-o",
                "ip.check_checksum:TRUE",
                "-o",
                "udp.check_checksum:TRUE",
                "-T",
                "fields",
                "-e",
                "ip.src",
                "-e",
                "ip.checksum.status",
                "-e",
                "udp.checksum.status");
        final Path err = dir.resolve("tshark.err");
        final Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("tshark stderr: %s", Files.readString(err)).isZero();

        assertThat(out.lines().toList()).containsExactly("192.0.2.1\t1\t1", "192.0.2.2\t1\t1", "192.0.2.2\t1\t1");
    }

    @Test
    void shouldRefuseMalformedEvidenceNamingTheCase() {
        final CaseResult c = SampleRuns.withEvidence(
                SampleRuns.finished().cases().get(0),
                new Evidence(
                        "", "", List.of(new Evidence.PacketRecord(0, "sideways", "x", "00")), Optional.of("e.pcap")));

        assertThatThrownBy(() -> PcapSlices.write(dir.resolve("e.pcap"), c))
                .hasMessageContaining("DataPathCase.outOfOrderWrite")
                .hasMessageContaining("sideways");
        assertThat(dir.resolve("e.pcap")).doesNotExist();
    }

    /**
     * Issue 33: the slice keeps each packet's real addresses, ports and ECN field, both directions, IPv4 and IPv6,
     * instead of rewriting them to 192.0.2.x:4796 Not-ECT.
     */
    @Test
    void shouldKeepTheAddressesPortsAndEcnOfEveryPacket() throws Exception {
        final List<Evidence.PacketRecord> packets = List.of(
                new Evidence.PacketRecord(
                        10,
                        PcapSlices.TESTER_TO_DUT,
                        "WRITE",
                        "0a0b",
                        Optional.of(new Evidence.Wire("127.0.0.1", 40001, "127.0.0.3", 4791, OptionalInt.of(3)))),
                new Evidence.PacketRecord(
                        20,
                        PcapSlices.DUT_TO_TESTER,
                        "ACK",
                        "0c0d",
                        Optional.of(new Evidence.Wire("127.0.0.3", 51234, "127.0.0.1", 40001, OptionalInt.of(2)))),
                new Evidence.PacketRecord(
                        30,
                        PcapSlices.DUT_TO_TESTER,
                        "ACK, ECN unseen",
                        "0e0f",
                        Optional.of(new Evidence.Wire("::1", 51235, "::1", 40002, OptionalInt.empty()))),
                new Evidence.PacketRecord(40, PcapSlices.TESTER_TO_DUT, "no wire fields", "1011"));
        final CaseResult c = SampleRuns.withEvidence(
                SampleRuns.finished().cases().get(0), new Evidence("", "", packets, Optional.of("e.pcap")));

        PcapSlices.write(dir.resolve("e.pcap"), c);

        final List<DecodedFrame> frames = new ArrayList<>();
        for (final CapturedFrame f : PcapReader.readAll(dir.resolve("e.pcap"))) {
            frames.add(f.decode());
        }
        assertThat(frames).hasSize(4);
        assertThat(frames).allSatisfy(f -> assertThat(f.checksumsOk()).isTrue());
        assertThat(frames.get(0).frame().srcIp()).isEqualTo(InetAddress.getByName("127.0.0.1"));
        assertThat(frames.get(0).frame().dstIp()).isEqualTo(InetAddress.getByName("127.0.0.3"));
        assertThat(frames.get(0).frame().srcPort()).isEqualTo(40001);
        assertThat(frames.get(0).frame().dstPort()).isEqualTo(4791);
        assertThat(frames.get(0).frame().ecn()).isEqualTo(Ecn.CE);
        assertThat(frames.get(1).frame().srcIp()).isEqualTo(InetAddress.getByName("127.0.0.3"));
        assertThat(frames.get(1).frame().srcPort()).isEqualTo(51234);
        assertThat(frames.get(1).frame().dstPort()).isEqualTo(40001);
        assertThat(frames.get(1).frame().ecn()).isEqualTo(Ecn.ECT_0);
        assertThat(frames.get(2).frame().isIpv6()).isTrue();
        assertThat(frames.get(2).frame().srcPort()).isEqualTo(51235);
        assertThat(frames.get(2).frame().ecn())
                .as("unseen ECN is written Not-ECT")
                .isEqualTo(Ecn.NOT_ECT);
        assertThat(frames.get(3).frame().srcIp())
                .as("no wire fields: the labels")
                .isEqualTo(PcapSlices.TESTER_IP);
        assertThat(frames.get(3).frame().srcPort()).isEqualTo(4796);
    }

    @Test
    void shouldRefuseAnAddressThatIsNoLiteral() {
        final CaseResult c = SampleRuns.withEvidence(
                SampleRuns.finished().cases().get(0),
                new Evidence(
                        "",
                        "",
                        List.of(new Evidence.PacketRecord(
                                0,
                                PcapSlices.TESTER_TO_DUT,
                                "x",
                                "00",
                                Optional.of(new Evidence.Wire("example.org", 1, "127.0.0.1", 2, OptionalInt.empty())))),
                        Optional.of("e.pcap")));

        assertThatThrownBy(() -> PcapSlices.write(dir.resolve("e.pcap"), c)).hasMessageContaining("example.org");
    }

    private static Path onPath(final String name) {
        final String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (final String d : path.split(File.pathSeparator)) {
            final Path candidate = Path.of(d, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
