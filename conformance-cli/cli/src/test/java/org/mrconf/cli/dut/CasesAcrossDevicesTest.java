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
import org.mrconf.dut.DeclarationLoader;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.JsonLineControlClient;
import org.mrconf.dut.RawEthernetOptions;
import org.mrconf.dut.RawEthernetWireLink;
import org.mrconf.dut.UdpWireLink;
import org.mrconf.embedded.EmbeddedReferenceDut;
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
                final List<CaseResult> results = assertAllPass(new DeviceUnderTest(
                        "soft DUT through raw Ethernet",
                        control,
                        link,
                        referenceProfile(dut, tester)
                                .withLink(DeviceDeclaration.Link.raw(NamespacedSoftDut.ROOT_INTERFACE))));
                // The case finds the link's whole-frame sender itself (WireLink.frameSender()): were it lost, the
                // case would silently turn not applicable.
                assertThat(results)
                        .filteredOn(result -> result.caseId().equals("UdpChecksumCase.overIpv4"))
                        .singleElement()
                        .extracting(CaseResult::verdict)
                        .as("4.1.6 over a link that sends whole frames")
                        .isEqualTo(Verdict.PASS);
                if (NamespacedSoftDut.checksumsInSoftware()) {
                    assertThat(results)
                            .filteredOn(result -> result.caseId().equals("UdpChecksumCase.dutSendsRightChecksums"))
                            .singleElement()
                            .extracting(CaseResult::verdict)
                            .as("4.1.6: the DUT's own checksums, computed in software on the veth")
                            .isEqualTo(Verdict.PASS);
                }
            }
        } finally {
            namespace.close();
        }
    }

    /** The reference's bundled declarations with the addresses this test gave it. */
    private static DeviceDeclaration referenceProfile(final InetSocketAddress dut, final InetSocketAddress tester)
            throws Exception {
        final DeviceDeclaration bundled = new DeclarationLoader().loadBundled("reference-udp");
        return bundled.withParameters(bundled.parameters().withDut(dut).withTester(tester));
    }

    private static List<CaseResult> assertAllPass(final DeviceUnderTest device) throws Exception {
        if (device.profile().link().kind() != DeviceDeclaration.LinkKind.EMBEDDED) {
            // Spec clause 12.1.5: the declaration file and hello declare the same claims (the embedded reference
            // keeps clause 8.1.6 in hello, since it sends from any port; its profile is the UDP one).
            final var hello = device.control().hello();
            assertThat(hello.profiles())
                    .as("hello profiles")
                    .isEqualTo(device.profile().conformance().profiles());
            assertThat(hello.optionalClauses())
                    .as("hello optionalClauses")
                    .containsExactlyInAnyOrderElementsOf(
                            device.profile().conformance().optionalClauses());
        }
        final List<CaseResult> results = rerunInconclusive(device, CaseRunner.run(device, result -> {}));
        assertThat(results).as("cases run against %s", device.name()).hasSizeGreaterThanOrEqualTo(CASE_COUNT);
        assertThat(results)
                .as("verdicts against %s", device.name())
                .allSatisfy(result -> assertThat(result.verdict() == Verdict.PASS
                                || notApplicable(result)
                                || ceInvisible(device, result)
                                || checksumsOffloaded(device, result)
                                || unlistedAndWarned(device, result))
                        .as("%s: %s %s", result.caseId(), result.verdict(), result.message())
                        .isTrue());
        return results;
    }

    /**
     * Runs each INCONCLUSIVE case once more and keeps that verdict instead. INCONCLUSIVE is the honest answer when a
     * timer the case does not control fired (a loaded CI host, another build beside it); a clean reference must still
     * PASS, so one more run must decide, and a case inconclusive twice fails this test.
     */
    private static List<CaseResult> rerunInconclusive(final DeviceUnderTest device, final List<CaseResult> first)
            throws Exception {
        final List<CaseResult> results = new java.util.ArrayList<>();
        for (final CaseResult result : first) {
            if (result.verdict() != Verdict.INCONCLUSIVE
                    || ceInvisible(device, result)
                    || checksumsOffloaded(device, result)) {
                results.add(result);
                continue;
            }
            final org.mrconf.runner.Selection only = new org.mrconf.runner.Selection(
                    List.of(), java.util.Set.of(), java.util.Set.of(), java.util.Set.of(), List.of(result.caseId()));
            final List<CaseResult> again = CaseRunner.run(
                    device, org.mrconf.runner.RunOptions.defaults().withSelection(only), ignored -> {});
            results.addAll(again.isEmpty() ? List.of(result) : again);
        }
        return results;
    }

    /**
     * The CE-count case is INCONCLUSIVE, never FAIL, when no mark reaches the DUT: the soft DUT on UDP sockets (also
     * behind the raw-Ethernet namespace) cannot read the ECN field yet (fixed on branch spec02). In memory it must pass.
     */
    private static boolean ceInvisible(final DeviceUnderTest device, final CaseResult result) {
        return device.profile().link().kind() != DeviceDeclaration.LinkKind.EMBEDDED
                && result.caseId().equals("CongestionCase.ceCountPerPath")
                && result.verdict() == Verdict.INCONCLUSIVE;
    }

    /**
     * The sent-checksum test is INCONCLUSIVE, never FAIL, over the namespace's veth pair when the machine has no ethtool
     * to turn the veth's checksum offload off: the soft DUT's kernel then leaves its UDP checksums to an offload that a
     * veth never runs, so the capture shows only the pseudo-header sum. With ethtool (CI installs it) it must PASS.
     */
    private static boolean checksumsOffloaded(final DeviceUnderTest device, final CaseResult result) {
        return device.profile().link().kind() == DeviceDeclaration.LinkKind.RAW
                && !NamespacedSoftDut.checksumsInSoftware()
                && result.caseId().equals("UdpChecksumCase.dutSendsRightChecksums")
                && result.verdict() == Verdict.INCONCLUSIVE
                && result.message().contains("offload");
    }

    /**
     * A case of SHOULD clauses the device does not list, not met: WARN, as clause 12.1.5 says. The soft DUT on sockets
     * sends its ACKs from a pool socket, not from the path's latest port, and so does not list 8.1.6.
     */
    private static boolean unlistedAndWarned(final DeviceUnderTest device, final CaseResult result) {
        return result.verdict() == Verdict.WARN
                && result.clauses().stream().noneMatch(device.profile()::implementsOptional);
    }

    /** A case of a profile the reference does not claim (ipv6), or that this link cannot carry out. */
    private static boolean notApplicable(final CaseResult result) {
        return result.verdict() == Verdict.NOT_APPLICABLE;
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
