package org.mrconf.cli.dut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutSession;
import org.mrconf.dut.ControlEndpoint;
import org.mrconf.dut.JsonLineControlClient;
import org.mrconf.dut.RawEthernetOptions;
import org.mrconf.dut.RawEthernetWireLink;
import org.mrconf.dut.UdpWireLink;

/**
 * The issue-4 acceptance: the same conformance case class (connection, region, out-of-order WRITE with
 * SACK checks, SEND into a posted receive, READ) passes unchanged against the embedded reference, the
 * soft DUT as a separate process over UDP, and the soft DUT reached through raw Ethernet in a network
 * namespace. The cases run through the JUnit Platform Launcher, as the runner will run them.
 */
class DataPathAcrossDevicesTest {
    private static final String CASES = "org.mrconf.cases.core.DataPathCase";
    private static final int CASE_COUNT = 3;

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
        final Process process = DeviceProcesses.startSoftDut(List.of(), "--bind", "127.0.0.1",
                "--port", String.valueOf(udpPort), "--control-port", String.valueOf(controlPort));
        try {
            DeviceProcesses.awaitListening(process, new InetSocketAddress("127.0.0.1", controlPort));
            final InetSocketAddress dut = new InetSocketAddress("127.0.0.1", udpPort);
            final InetSocketAddress tester = new InetSocketAddress("127.0.0.2", DeviceProcesses.freePort());
            try (UdpWireLink link = UdpWireLink.open(dut, tester, System::nanoTime);
                 JsonLineControlClient control = JsonLineControlClient.connect(ControlEndpoint.of("127.0.0.1", controlPort))) {
                assertAllPass(new DeviceUnderTest("soft DUT process over UDP", control, link));
            }
        } finally {
            DeviceProcesses.stop(process);
        }
    }

    @Test
    @Timeout(180)
    void shouldPassAgainstTheSoftDutThroughRawEthernetInANamespace() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")),
                "raw Ethernet needs root to make a network namespace and open a capture (CI runs as root)");
        assumeTrue(commandWorks("ip", "-V"), "the ip command (iproute2) is not installed");
        final NamespacedSoftDut namespace = NamespacedSoftDut.create();
        try {
            final InetSocketAddress dut = new InetSocketAddress(NamespacedSoftDut.DUT_ADDRESS, 4796);
            final InetSocketAddress tester = new InetSocketAddress(NamespacedSoftDut.TESTER_ADDRESS, 4796);
            try (RawEthernetWireLink link = RawEthernetWireLink.open(
                         RawEthernetOptions.of(NamespacedSoftDut.ROOT_INTERFACE, tester, dut));
                 JsonLineControlClient control = JsonLineControlClient.connect(new ControlEndpoint(
                         NamespacedSoftDut.DUT_ADDRESS.getHostAddress(), 4797, Optional.of(NamespacedSoftDut.TOKEN)))) {
                assertAllPass(new DeviceUnderTest("soft DUT through raw Ethernet", control, link));
            }
        } finally {
            namespace.close();
        }
    }

    private static void assertAllPass(final DeviceUnderTest device) throws Exception {
        final SummaryGeneratingListener listener = new SummaryGeneratingListener();
        try (AutoCloseable installed = DutSession.install(device)) {
            LauncherFactory.create().execute(request().selectors(selectClass(CASES)).build(), listener);
        }
        final TestExecutionSummary summary = listener.getSummary();
        final StringWriter failures = new StringWriter();
        summary.printFailuresTo(new PrintWriter(failures), 30);
        assertThat(summary.getTotalFailureCount()).as("failures against %s:%n%s", device.name(), failures).isZero();
        assertThat(summary.getTestsSucceededCount()).as("cases run against %s", device.name()).isEqualTo(CASE_COUNT);
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
