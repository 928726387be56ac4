package org.mrconf.cli.dut;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.dut.ControlEndpoint;
import org.mrconf.dut.DeclarationLoader;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.JsonLineControlClient;
import org.mrconf.dut.UdpWireLink;
import org.mrconf.runner.CaseRunner;
import org.mrconf.runner.RunOptions;
import org.mrconf.runner.Selection;
import org.mrconf.softdut.SoftDut;
import org.mrconf.softdut.SoftDutOptions;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Verdict;

/**
 * Issue 33: no case binds a fixed port. The tester once bound UDP ports inside Linux's ephemeral range (49152,
 * 50000-50002, 50011-50015, 50100-50103, 61000, 65535) and ended ERROR when another socket held one. This test holds
 * every one of them on the tester's address (a port some other process already holds is just as unavailable) and runs
 * the cases that used them against the soft DUT over UDP: none may end ERROR or FAIL.
 */
class HeldPortsTest {
    /** The ports the cases used to bind. */
    private static final List<Integer> FORMERLY_FIXED = IntStream.concat(
                    IntStream.of(49152, 61000, 65535),
                    IntStream.concat(
                            IntStream.rangeClosed(50000, 50002),
                            IntStream.concat(IntStream.rangeClosed(50011, 50015), IntStream.rangeClosed(50100, 50103))))
            .boxed()
            .toList();

    private static final List<String> CASES =
            List.of("EncapsulationCase.*", "ConnectionsCase.*", "AckEntropyCase.*", "UnknownConnectionNackCase.*");

    @Test
    @Timeout(300)
    void casesPassWhileTheirFormerFixedPortsAreHeld() throws Exception {
        final InetAddress loopback = InetAddress.getByName("127.0.0.1");
        final List<DatagramSocket> held = new ArrayList<>();
        final SoftDut dut = SoftDut.start(SoftDutOptions.builder()
                .bindAddress(loopback)
                .udpPort(0)
                .controlPort(0)
                .build());
        try {
            for (final int port : FORMERLY_FIXED) {
                hold(held, new InetSocketAddress(loopback, port));
            }
            final InetSocketAddress dutAddress = new InetSocketAddress(loopback, dut.udpPort());
            final InetSocketAddress tester = new InetSocketAddress(loopback, DeviceProcesses.freePort());
            final DeviceDeclaration bundled = new DeclarationLoader().loadBundled("reference-udp");
            final DeviceDeclaration profile = bundled.withParameters(
                            bundled.parameters().withDut(dutAddress).withTester(tester))
                    .withControl(Optional.of(ControlEndpoint.of("127.0.0.1", dut.controlPort())));
            try (UdpWireLink link = UdpWireLink.open(dutAddress, tester, System::nanoTime);
                    JsonLineControlClient control =
                            JsonLineControlClient.connect(ControlEndpoint.of("127.0.0.1", dut.controlPort()))) {
                final DeviceUnderTest device =
                        new DeviceUnderTest("soft DUT over UDP, ports held", control, link, profile);
                final List<CaseResult> results = CaseRunner.run(
                        device,
                        RunOptions.defaults()
                                .withSelection(new Selection(List.of(), Set.of(), Set.of(), Set.of(), CASES)),
                        ignored -> {});
                assertThat(results).as("cases run").isNotEmpty();
                assertThat(results)
                        .as("verdicts with ports %s held", FORMERLY_FIXED)
                        .allSatisfy(r -> assertThat(r.verdict())
                                .as("%s: %s", r.caseId(), r.message())
                                .isNotIn(Verdict.ERROR, Verdict.FAIL));
            }
        } finally {
            for (final DatagramSocket socket : held) {
                socket.close();
            }
            dut.close();
        }
    }

    /** Binds {@code address}; when another socket already holds it, it is held all the same. */
    private static void hold(final List<DatagramSocket> held, final InetSocketAddress address) {
        try {
            held.add(new DatagramSocket(address));
        } catch (final SocketException e) {
            // Held by someone else: unavailable to the tester either way.
        }
    }
}
