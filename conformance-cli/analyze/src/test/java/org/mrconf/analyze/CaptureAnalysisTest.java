package org.mrconf.analyze;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.dut.DeclarationLoader;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.pcap.Ecn;
import org.mrconf.pcap.PcapWriter;
import org.mrconf.pcap.UdpFrame;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Verdict;
import org.mrconf.wire.DataHeaderFlyweight;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.PacketEncoder;
import org.mrconf.wire.PacketFlags;

/**
 * The passive analyser on captures of the reference talking to itself: a clean capture passes every clause it can
 * judge for both ends, and captures rewritten to play a defective end fail exactly the clause that end broke.
 */
class CaptureAnalysisTest {
    private static final String A = ReferenceCapture.address(0);
    private static final String B = ReferenceCapture.address(1);
    private static final long SEED = 7;

    @TempDir
    static Path dir;

    private static ClauseCatalogue catalogue;
    private static DeviceDeclaration reference;
    private static CaptureAnalysis clean;

    @BeforeAll
    static void analyseTheCleanCapture() throws Exception {
        catalogue = new CatalogueLoader().loadBundled();
        reference = new DeclarationLoader(catalogue).loadBundled("reference-udp");
        clean = analyse("clean", ReferenceCapture.Mutation.NONE);
    }

    @Test
    void shouldPassEveryJudgedClauseForBothEndsOfTheReference() {
        assertThat(clean.metaroceFrames()).isGreaterThan(1_000);
        assertThat(clean.cases()).noneMatch(c -> c.verdict() == Verdict.FAIL || c.verdict() == Verdict.ERROR);
        for (final String end : List.of(A, B)) {
            for (final String clause : List.of("5.1.1", "5.6.1", "6.1.1", "6.4.1", "6.4.2", "8.1.1", "8.2.1")) {
                assertThat(verdict(clean, end, clause))
                        .as("%s clause %s", end, clause)
                        .isEqualTo(Verdict.PASS);
            }
        }
        assertThat(verdict(clean, A, "6.6.4")).as("timeouts re-path").isEqualTo(Verdict.PASS);
    }

    @Test
    void shouldSayInconclusiveNotPassWhereTheCaptureHoldsNothingToJudge() {
        // The reference sends no PROBE on this fabric: clause 5.5.1 cannot be judged, so it is not a pass.
        assertThat(clean.cases())
                .filteredOn(c -> c.clauses().contains("5.5.1"))
                .allSatisfy(c -> assertThat(c.verdict()).isIn(Verdict.INCONCLUSIVE, Verdict.PASS));
        assertThat(clean.cases())
                .filteredOn(c -> c.verdict() == Verdict.INCONCLUSIVE)
                .allSatisfy(c -> assertThat(c.message()).contains("holds nothing"));
    }

    @Test
    void shouldFailARetransmissionWithoutItsFlag() throws Exception {
        final CaptureAnalysis analysis = analyse("no-flag", sent -> {
            if (isData(sent.bytes) && (flags(sent.bytes) & PacketFlags.RETRANSMISSION) != 0 && A.equals(sent.sender)) {
                setFlags(sent.bytes, flags(sent.bytes) & ~PacketFlags.RETRANSMISSION);
            }
            return true;
        });
        assertThat(verdict(analysis, A, "6.4.2")).isEqualTo(Verdict.FAIL);
        assertThat(message(analysis, A, "6.4.2"))
                .contains("without the RETRANSMISSION flag")
                .contains("frames");
        assertThat(verdict(analysis, B, "6.4.2"))
                .as("the other end is not blamed")
                .isEqualTo(Verdict.PASS);
    }

    @Test
    void shouldFailARetransmissionThatReusesTheOriginalTimestamp() throws Exception {
        final Map<String, Long> timestamps = new HashMap<>();
        final CaptureAnalysis analysis = analyse("stale-timestamp", sent -> {
            if (isData(sent.bytes) && A.equals(sent.sender)) {
                final ByteBuffer buffer = ByteBuffer.wrap(sent.bytes);
                final String key = buffer.getInt(4) + "/" + (buffer.get(8) & 0xFF) + "/" + buffer.getInt(12);
                if ((flags(sent.bytes) & PacketFlags.RETRANSMISSION) == 0) {
                    timestamps.put(key, (long) buffer.getInt(DataHeaderFlyweight.TRANSMIT_TIMESTAMP_OFFSET));
                } else if (timestamps.containsKey(key)) {
                    buffer.putInt(
                            DataHeaderFlyweight.TRANSMIT_TIMESTAMP_OFFSET,
                            timestamps.get(key).intValue());
                    recomputeCrc(sent.bytes);
                }
            }
            return true;
        });
        assertThat(verdict(analysis, A, "6.4.2")).isEqualTo(Verdict.FAIL);
        assertThat(message(analysis, A, "6.4.2")).contains("previous transmission's timestamp");
    }

    @Test
    void shouldNotFailASingleUnpromptedResendFromAnUnchangedSourcePort() throws Exception {
        final Map<String, Integer> ports = new HashMap<>();
        final CaptureAnalysis analysis = analyse("no-repath", sent -> {
            if (isData(sent.bytes) && A.equals(sent.sender)) {
                final ByteBuffer buffer = ByteBuffer.wrap(sent.bytes);
                final String path = buffer.getInt(4) + "/" + (buffer.get(8) & 0xFF);
                // Rewrite the capture as if the sender kept one entropy per path for ever. The real sender re-paths,
                // so each timed-out PSN gets through after one resend: a sender may also resend unprompted before its
                // timer expires, so one such resend from an unchanged port proves nothing, and 6.6.4 must not FAIL.
                // The reference that really keeps its entropy (NO_REPATH_AFTER_RTO) resends a PSN from the same port
                // again and again, and fails 6.6.4: AnalyzeSelfValidationTest proves it.
                sent.sourcePort = ports.computeIfAbsent(path, k -> sent.sourcePort);
            }
            return true;
        });
        assertThat(verdict(analysis, A, "6.6.4")).isNotEqualTo(Verdict.FAIL);
        assertThat(analysis.notes())
                .containsKey("first unprompted resends from an unchanged source port, not judged for 6.6.4");
    }

    @Test
    void shouldFailAnAckThatReportsAPsnNeverSent() throws Exception {
        final CaptureAnalysis analysis = analyse("ack-unsent", sent -> {
            if (opcode(sent.bytes) == Opcode.ACK.value() && B.equals(sent.sender)) {
                sent.bytes[28 + 31] |= (byte) 0x80; // SACK bit 255: cumulative + 255, beyond anything in flight
                recomputeCrc(sent.bytes);
            }
            return true;
        });
        assertThat(verdict(analysis, B, "8.1.1")).isEqualTo(Verdict.FAIL);
        assertThat(message(analysis, B, "8.1.1")).contains("never sent");
    }

    @Test
    void shouldFailNotEctDataOnlyForAnEndThatClaimsCongestion() throws Exception {
        final ReferenceCapture.Mutation notEct = sent -> {
            if (isData(sent.bytes) && A.equals(sent.sender)) {
                sent.ecn = 0;
            }
            return true;
        };
        final CaptureAnalysis declared = analyse("not-ect", notEct);
        assertThat(verdict(declared, A, "4.1.7")).isEqualTo(Verdict.FAIL);
        final CaptureAnalysis undeclared = CaptureAnalysis.of(
                dir.resolve("not-ect.pcap"), 4796, Duration.ofMillis(5), catalogue, Map.of(), Optional.empty());
        assertThat(verdict(undeclared, A, "4.1.7"))
                .as("without declarations nobody knows whether the end claims congestion")
                .isEqualTo(Verdict.INCONCLUSIVE);
    }

    /**
     * Hardening finding 12: a DUT and a tester on one address (loopback) are two ends, told apart by port. The tester
     * (receiving on port 5000) skips a PSN on purpose; the DUT (port 4796) sends and acknowledges correctly. Only the
     * tester may FAIL clause 6.1.1. Before, both were one end, "127.0.0.1", and the tester's violation was its FAIL.
     */
    @Test
    void shouldTellTwoEndsOnOneAddressApartByTheirPorts() throws Exception {
        final Path file = dir.resolve("loopback.pcap");
        final String loopback = "127.0.0.1";
        final int dutPort = 4796;
        final int testerPort = 5000;
        final PacketEncoder encoder = new PacketEncoder();
        final ByteBuffer buffer = ByteBuffer.allocate(256);
        final long[] nowNs = {0};
        try (PcapWriter writer = PcapWriter.create(file)) {
            final java.util.function.BiConsumer<int[], Integer> frame = (ports, length) -> {
                final byte[] bytes = new byte[length];
                buffer.duplicate().get(bytes);
                nowNs[0] += 10_000;
                writer.write(UdpFrame.builder()
                        .ips(loopback, loopback)
                        .srcPort(ports[0])
                        .dstPort(ports[1])
                        .ecn(Ecn.ECT_0)
                        .payload(bytes)
                        .timestamp(
                                java.time.Instant.ofEpochSecond(1_700_000_000L).plusNanos(nowNs[0]))
                        .build());
            };
            // Tester to DUT (connection 1) from entropy port 50000: PSNs 0, 1, 2, then 5 as new, where 3 was due.
            for (final long psn : new long[] {0, 1, 2, 5}) {
                frame.accept(new int[] {50000, dutPort}, write(encoder, buffer, 1, psn, 100 + psn));
                if (psn < 3) { // the DUT acknowledges the in-order ones, from the data's port
                    frame.accept(new int[] {50000, testerPort}, ack(encoder, buffer, 2, psn + 1, 100 + psn));
                }
            }
            // DUT to tester (connection 2) from entropy port 50001, in order, each acknowledged.
            for (long psn = 0; psn < 4; psn++) {
                frame.accept(new int[] {50001, testerPort}, write(encoder, buffer, 2, psn, 200 + psn));
                frame.accept(new int[] {50001, dutPort}, ack(encoder, buffer, 1, psn + 1, 200 + psn));
            }
        }

        final CaptureAnalysis analysis =
                CaptureAnalysis.of(file, dutPort, Duration.ofMillis(5), catalogue, Map.of(), Optional.of(reference));

        final String dut = loopback + ":" + dutPort;
        final String tester = loopback + ":" + testerPort;
        assertThat(analysis.cases())
                .extracting(c -> c.caseId().substring(0, c.caseId().indexOf(']') + 1))
                .containsOnly("analyze[" + dut + "]", "analyze[" + tester + "]");
        assertThat(verdict(analysis, tester, "6.1.1"))
                .as("the tester skipped a PSN")
                .isEqualTo(Verdict.FAIL);
        assertThat(verdict(analysis, dut, "6.1.1")).as("the DUT is not blamed").isEqualTo(Verdict.PASS);
        assertThat(analysis.clauses(dut, Verdict.FAIL)).isEmpty();
        assertThat(analysis.clauses(loopback, Verdict.FAIL))
                .as("the address covers both ends")
                .contains("6.1.1");
    }

    /** A one-byte WRITE to {@code connection}, path 0, stream 0, MSN {@code psn}; returns its length. */
    private static int write(
            final PacketEncoder encoder,
            final ByteBuffer buffer,
            final long connection,
            final long psn,
            final long ts) {
        encoder.data(buffer, 0, Opcode.WRITE)
                .destinationConnectionId(connection)
                .pathId(0)
                .psn(psn)
                .streamId(0)
                .payloadLength(1)
                .messageSequenceNumber(psn)
                .messageLength(1)
                .messageOffset(0)
                .transmitTimestamp(ts)
                .remoteAddress(0x1000)
                .remoteKey(1);
        return encoder.finishWithPayload(buffer, 0, ByteBuffer.wrap(new byte[] {1}));
    }

    /** An ACK to {@code connection}, path 0, with this cumulative PSN and echoed timestamp; returns its length. */
    private static int ack(
            final PacketEncoder encoder,
            final ByteBuffer buffer,
            final long connection,
            final long cumulative,
            final long echoed) {
        encoder.ack(buffer, 0)
                .destinationConnectionId(connection)
                .pathId(0)
                .cumulativePsn(cumulative)
                .echoedTimestamp(echoed);
        return encoder.finish(buffer, 0, Opcode.ACK.packetLength(0));
    }

    private static CaptureAnalysis analyse(final String name, final ReferenceCapture.Mutation mutation)
            throws Exception {
        final Path file = dir.resolve(name + ".pcap");
        ReferenceCapture.write(file, SEED, mutation);
        return CaptureAnalysis.of(file, 4796, Duration.ofMillis(5), catalogue, Map.of(), Optional.of(reference));
    }

    private static Verdict verdict(final CaptureAnalysis analysis, final String end, final String clause) {
        return result(analysis, end, clause).verdict();
    }

    private static String message(final CaptureAnalysis analysis, final String end, final String clause) {
        return result(analysis, end, clause).message();
    }

    private static CaseResult result(final CaptureAnalysis analysis, final String end, final String clause) {
        return analysis.cases().stream()
                .filter(c -> c.caseId().startsWith("analyze[" + (end.contains(":") ? end : end + ":4796") + "]")
                        && c.clauses().contains(clause))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no verdict for " + end + " clause " + clause));
    }

    private static int opcode(final byte[] bytes) {
        return bytes[1] & 0xFF;
    }

    private static boolean isData(final byte[] bytes) {
        final int opcode = opcode(bytes);
        return opcode >= Opcode.WRITE.value() && opcode <= Opcode.READ_RESPONSE.value();
    }

    private static int flags(final byte[] bytes) {
        return ByteBuffer.wrap(bytes).getShort(2) & 0xFFFF;
    }

    private static void setFlags(final byte[] bytes, final int flags) {
        ByteBuffer.wrap(bytes).putShort(2, (short) flags);
        recomputeCrc(bytes);
    }

    private static void recomputeCrc(final byte[] bytes) {
        new PacketEncoder().finish(ByteBuffer.wrap(bytes), 0, bytes.length);
    }
}
