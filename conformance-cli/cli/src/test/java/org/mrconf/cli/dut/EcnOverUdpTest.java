package org.mrconf.cli.dut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.defect.Defect;
import org.mrconf.defect.Defects;
import org.mrconf.dut.ControlEndpoint;
import org.mrconf.dut.DeclarationLoader;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.JsonLineControlClient;
import org.mrconf.dut.UdpWireLink;
import org.mrconf.pcap.net.EcnDatagramSocket;
import org.mrconf.runner.CaseRunner;
import org.mrconf.runner.RunOptions;
import org.mrconf.runner.Selection;
import org.mrconf.softdut.SoftDut;
import org.mrconf.softdut.SoftDutOptions;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Evidence;
import org.mrconf.verdict.Verdict;

/**
 * Issue 33: over UDP the tester's link reads the ECN field of what it receives, so clause 4.1.7's sender check
 * ({@code EncapsulationCase.dataIsEcnCapable}) is judged against the soft DUT instead of NOT_APPLICABLE: the clean
 * soft DUT PASSes it, and the soft DUT committing {@link Defect#NOT_ECT_ON_DATA} FAILs it.
 */
class EcnOverUdpTest {
    private static final String CASE = "EncapsulationCase.dataIsEcnCapable";

    @Test
    @Timeout(120)
    void theSendersEctMarksAreJudgedOverUdp() throws Exception {
        assumeTrue(EcnDatagramSocket.platformSupported(), "the ECN-reading socket is Linux (64-bit) only");

        assertThat(run(Defects.NONE).verdict()).as("clean soft DUT").isEqualTo(Verdict.PASS);
        final CaseResult failed = run(Defects.of(Defect.NOT_ECT_ON_DATA));
        assertThat(failed.verdict()).as("soft DUT sending its data Not-ECT").isEqualTo(Verdict.FAIL);

        // The evidence keeps the real addresses, ports and ECN field of the packets of both directions (issue 33).
        final List<Evidence.PacketRecord> packets = failed.evidence().packets();
        assertThat(packets).allSatisfy(p -> assertThat(p.wire()).isPresent());
        final List<Evidence.Wire> fromTester = wires(packets, "tester->dut");
        final List<Evidence.Wire> fromDut = wires(packets, "dut->tester");
        assertThat(fromTester)
                .as("the tester's own packets are in the evidence")
                .isNotEmpty();
        assertThat(fromDut).isNotEmpty();
        assertThat(fromTester).allSatisfy(w -> {
            assertThat(w.sourceAddress()).isEqualTo("127.0.0.1");
            assertThat(w.destinationPort()).isEqualTo(dutPort);
            assertThat(w.ecn()).isPresent();
        });
        assertThat(fromDut).allSatisfy(w -> {
            assertThat(w.sourceAddress()).isEqualTo("127.0.0.1");
            assertThat(w.sourcePort()).as("the DUT's entropy port, not 4796").isNotEqualTo(4796);
            assertThat(w.ecn()).as("seen over UDP").isPresent();
        });
        assertThat(fromDut)
                .as("the defect's Not-ECT data is visible in the evidence")
                .anySatisfy(w -> assertThat(w.ecn().getAsInt()).isZero());
    }

    private static List<Evidence.Wire> wires(final List<Evidence.PacketRecord> packets, final String direction) {
        return packets.stream()
                .filter(p -> p.direction().equals(direction))
                .map(p -> p.wire().orElseThrow())
                .toList();
    }

    private static int dutPort;

    private static CaseResult run(final Defects defects) throws Exception {
        final InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (SoftDut dut = SoftDut.start(SoftDutOptions.builder()
                .bindAddress(loopback)
                .udpPort(0)
                .controlPort(0)
                .endpoint(SoftDutOptions.defaultEndpointConfig().toBuilder()
                        .defects(defects)
                        .build())
                .build())) {
            final InetSocketAddress dutAddress = new InetSocketAddress(loopback, dut.udpPort());
            dutPort = dut.udpPort();
            final InetSocketAddress tester = new InetSocketAddress(loopback, 0);
            final DeviceDeclaration bundled = new DeclarationLoader().loadBundled("reference-udp");
            try (UdpWireLink link = UdpWireLink.open(dutAddress, tester, System::nanoTime);
                    JsonLineControlClient control =
                            JsonLineControlClient.connect(ControlEndpoint.of("127.0.0.1", dut.controlPort()))) {
                assertThat(link.ecnUnseenReason()).as("the link sees ECN").isEmpty();
                final DeviceDeclaration profile = bundled.withParameters(bundled.parameters()
                                .withDut(dutAddress)
                                .withTester(new InetSocketAddress(loopback, link.testerPort())))
                        .withControl(Optional.of(ControlEndpoint.of("127.0.0.1", dut.controlPort())));
                final DeviceUnderTest device = new DeviceUnderTest("soft DUT over UDP", control, link, profile);
                final List<CaseResult> results = CaseRunner.run(
                        device,
                        RunOptions.defaults()
                                .withSelection(new Selection(List.of(), Set.of(), Set.of(), Set.of(), List.of(CASE))),
                        ignored -> {});
                assertThat(results).extracting(CaseResult::caseId).containsExactly(CASE);
                return results.get(0);
            }
        }
    }
}
