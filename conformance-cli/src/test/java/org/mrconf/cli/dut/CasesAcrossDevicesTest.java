package org.mrconf.cli.dut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.dut.ControlEndpoint;
import org.mrconf.dut.DutProfile;
import org.mrconf.dut.DutProfileLoader;
import org.mrconf.dut.JsonLineControlClient;
import org.mrconf.dut.RawEthernetOptions;
import org.mrconf.dut.RawEthernetWireLink;
import org.mrconf.dut.UdpWireLink;
import org.mrconf.runner.CaseRunner;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Verdict;

/**
 * The issue-4 acceptance: the same conformance cases (connection, region, out-of-order WRITE with SACK
 * checks, SEND into a posted receive, READ, and the integrity and protection cases) pass unchanged against
 * the embedded reference, the soft DUT as a separate process over UDP, and the soft DUT reached through
 * raw Ethernet in a network namespace. They run through the runner, on the JUnit Platform Launcher.
 */
class CasesAcrossDevicesTest {
    /** At least the data-path, integrity and protection cases. */
    private static final int CASE_COUNT = 13;

    @Test
    @Timeout(120)
    void shouldPassAgainstTheEmbeddedReference() throws Exception {
        try (EmbeddedReferenceDut embedded = EmbeddedReferenceDut.start()) {
            assertAllPass(embedded.device());
        }
    }

    @Test
    @Timeout(180)
    void shouldPassAgainstTheSoftDutProcessOverUdp() throws Exception {
        final int udpPort = DeviceProcesses.freePort();
        final int controlPort = DeviceProcesses.freePort();
        final Process process = DeviceProcesses.startSoftDut(
                List.of(),
                "--bind",
                "127.0.0.1",
                "--port",
                String.valueOf(udpPort),
                "--control-port",
                String.valueOf(controlPort));
        try {
            DeviceProcesses.awaitListening(process, new InetSocketAddress("127.0.0.1", controlPort));
            final InetSocketAddress dut = new InetSocketAddress("127.0.0.1", udpPort);
            final InetSocketAddress tester = new InetSocketAddress("127.0.0.2", DeviceProcesses.freePort());
            try (UdpWireLink link = UdpWireLink.open(dut, tester, System::nanoTime);
                    JsonLineControlClient control =
                            JsonLineControlClient.connect(ControlEndpoint.of("127.0.0.1", controlPort))) {
                assertAllPass(
                        new DeviceUnderTest("soft DUT process over UDP", control, link, referenceProfile(dut, tester)));
            }
        } finally {
            DeviceProcesses.stop(process);
        }
    }

    @Test
    @Timeout(180)
    void shouldPassAgainstTheSoftDutThroughRawEthernetInANamespace() throws Exception {
        assumeTrue(
                "root".equals(System.getProperty("user.name")),
                "raw Ethernet needs root to make a network namespace and open a capture (CI runs as root)");
        assumeTrue(commandWorks("ip", "-V"), "the ip command (iproute2) is not installed");
        final NamespacedSoftDut namespace = NamespacedSoftDut.create();
        try {
            final InetSocketAddress dut = new InetSocketAddress(NamespacedSoftDut.DUT_ADDRESS, 4796);
            final InetSocketAddress tester = new InetSocketAddress(NamespacedSoftDut.TESTER_ADDRESS, 4796);
            try (RawEthernetWireLink link = RawEthernetWireLink.open(
                            RawEthernetOptions.of(NamespacedSoftDut.ROOT_INTERFACE, tester, dut));
                    JsonLineControlClient control = JsonLineControlClient.connect(new ControlEndpoint(
                            NamespacedSoftDut.DUT_ADDRESS.getHostAddress(),
                            4797,
                            Optional.of(NamespacedSoftDut.TOKEN)))) {
                assertAllPass(new DeviceUnderTest(
                        "soft DUT through raw Ethernet",
                        control,
                        link,
                        referenceProfile(dut, tester).withLink(DutProfile.Link.raw(NamespacedSoftDut.ROOT_INTERFACE))));
            }
        } finally {
            namespace.close();
        }
    }

    /** The reference's bundled declarations with the addresses this test gave it. */
    private static DutProfile referenceProfile(final InetSocketAddress dut, final InetSocketAddress tester)
            throws Exception {
        final DutProfile bundled = new DutProfileLoader().loadBundled("reference-udp");
        return bundled.withParameters(bundled.parameters().withDut(dut).withTester(tester));
    }

    private static void assertAllPass(final DeviceUnderTest device) throws Exception {
        final List<CaseResult> results = CaseRunner.run(device, result -> {});
        assertThat(results).as("cases run against %s", device.name()).hasSizeGreaterThanOrEqualTo(CASE_COUNT);
        assertThat(results)
                .as("verdicts against %s", device.name())
                .allSatisfy(result -> assertThat(result.verdict())
                        .as("%s: %s", result.caseId(), result.message())
                        .isEqualTo(Verdict.PASS));
    }

    private static boolean commandWorks(final String... command) {
        try {
            DeviceProcesses.run(command);
            return true;
        } catch (final Exception e) {
            return false;
        }
    }
}
