package org.mrconf.cli.dut;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mrconf.cases.Applicability;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.catalogue.Profile;
import org.mrconf.defect.Defects;
import org.mrconf.dut.Datagram;
import org.mrconf.dut.DutProfile;
import org.mrconf.dut.DutProfileLoader;
import org.mrconf.dut.JsonLineControlClient;
import org.mrconf.dut.QueueWireLink;
import org.mrconf.embedded.EmbeddedReferenceDut;
import org.mrconf.embedded.ReferenceConfiguration;
import org.mrconf.pcap.Ecn;
import org.mrconf.runner.CaseRunner;
import org.mrconf.runner.RunOptions;
import org.mrconf.runner.Selection;
import org.mrconf.selftest.VariantSelfTest;
import org.mrconf.softdut.SoftDut;
import org.mrconf.softdut.SoftDutOptions;
import org.mrconf.transport.EndpointConfig;
import org.mrconf.transport.Feature;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Verdict;
import org.mrconf.wire.WireConstants;

/**
 * Issue 33: legal devices the standard reference does not stand for get exit 0 on the cases their choices bear on. A
 * device that claims core alone and declares no windows, and devices whose declared initial path and connection windows
 * are 1 and 2 packets (clause 10: "a tester must not assume more than one"), run the window, congestion, loss-recovery
 * and READ cases: none may FAIL or ERROR, and no MUST clause may stay INCONCLUSIVE (exit 0 of {@code metaroce run}).
 * Only the cases the windows bear on run, to keep CI short.
 */
class SmallWindowsTest {
    /** The cases the windows bear on (the findings, and every case that fills or reads a window). */
    private static final List<String> WINDOW_CASES = List.of(
            "ReadCase.*",
            "LateAnswersCase.*",
            "CongestionCase.*",
            "LossRecoveryCase.*",
            "SelectiveRetransmissionCase.*",
            "TimeoutWindowCase.*",
            "ConnectionWindowCase.*",
            "ConnectionDecreaseSpacingCase.*",
            "RateHintFloorCase.*",
            "FastRetransmitPaceCase.*",
            "WindowWeightedSprayingCase.*",
            "SendWindowCase.*",
            "MemoryProtectionCase.invalidatedSourceIsNotSent",
            "FailureStatusCase.unsentSourceFailsTheConnection",
            "TailLossProbeCase.*",
            "TimerCase.*",
            "CompletionCase.sender*");

    /**
     * What is still open (issue 33), precisely: the cases that stay INCONCLUSIVE on a MUST clause against the reference
     * with these first windows. No case may FAIL or ERROR; a blocking INCONCLUSIVE outside this list fails the test.
     * ConnectionDecreaseSpacingCase needs a connection window whose one and two decreases differ by more than the
     * counts' slack (about 24 packets); it judges only the declared first window, and growing it leaves the window
     * known only between sqrt(W0^2 + 2n) and about sqrt(W0^2 + 5n). ConnectionWindowCase (1/1 only) needs a
     * packet on every one of its paths in the warm-up, which a one-packet connection window never lets the reference
     * do while ACKs are held (it keeps to its most-acknowledged paths). TimerCase's per-path RTT check needs a packet on
     * path 1 while path 0 carries one, which a reference with windows 1/1 never sends (its most-acknowledged path
     * always has the most free window).
     */
    private static final java.util.Map<String, Set<String>> STILL_UNDECIDED = java.util.Map.of(
            "1/1",
            Set.of(
                    "ConnectionDecreaseSpacingCase.decreasesAreSpacedByTheConnectionsSmoothedRtt",
                    "ConnectionWindowCase.connectionWindowBindsWhateverThePathsAllow",
                    "TimerCase.rttEstimatePerPathFromEchoedTimestamps"),
            "2/2",
            Set.of("ConnectionDecreaseSpacingCase.decreasesAreSpacedByTheConnectionsSmoothedRtt"),
            "2/3",
            Set.of("ConnectionDecreaseSpacingCase.decreasesAreSpacedByTheConnectionsSmoothedRtt"));

    /** The cases to run: {@link #WINDOW_CASES}, or the comma-separated globs of {@code -Dsmallwindows.cases}. */
    private static List<String> cases() {
        final String only = System.getProperty("smallwindows.cases", "");
        return only.isBlank() ? WINDOW_CASES : List.of(only.split(","));
    }

    /** The small windows, and the standard ones (the bundled profile's 32 and 1024), which must still all decide. */
    static Stream<Arguments> windows() {
        return Stream.of(Arguments.of(1, 1), Arguments.of(2, 2), Arguments.of(2, 3), Arguments.of(32, 1024));
    }

    @ParameterizedTest(name = "initial windows {0} (path) and {1} (connection)")
    @MethodSource("windows")
    @Timeout(600)
    void smallDeclaredWindowsGetExitZero(final int path, final int connection) throws Exception {
        try (Windowed reference = Windowed.start(path, connection)) {
            assertExitZero(
                    reference.device(),
                    run(reference.device(), cases()),
                    STILL_UNDECIDED.getOrDefault(path + "/" + connection, Set.of()));
        }
    }

    @Test
    @Timeout(600)
    void aCoreOnlyDeviceWithoutDeclaredWindowsGetsExitZero() throws Exception {
        try (EmbeddedReferenceDut embedded = EmbeddedReferenceDut.start(Defects.NONE, ReferenceConfiguration.CORE)) {
            final DutProfile standard = embedded.device().profile();
            final DutProfile.Conformance claims = standard.conformance();
            final DutProfile coreOnly = standard.withConformance(new DutProfile.Conformance(
                            EnumSet.of(Profile.CORE),
                            claims.optionalClauses().stream()
                                    .filter(id -> Applicability.catalogue()
                                            .find(id)
                                            .map(c -> c.profile() == Profile.CORE)
                                            .orElse(false))
                                    .toList(),
                            claims.limits(),
                            claims.reorderTolerance()))
                    .withParameters(withWindows(standard.parameters(), 0, 0));
            final DeviceUnderTest device = embedded.device(coreOnly);
            assertExitZero(device, run(device, cases()), Set.of());
        }
    }

    private static List<CaseResult> run(final DeviceUnderTest device, final List<String> cases) throws Exception {
        final Selection only = new Selection(List.of(), Set.of(), Set.of(), Set.of(), cases);
        final List<CaseResult> first =
                CaseRunner.run(device, RunOptions.defaults().withSelection(only), ignored -> {});
        // A case undecided once because a timer it does not control fired on a loaded host runs once more, as
        // CasesAcrossDevicesTest does; twice undecided fails this test.
        final List<CaseResult> results = new ArrayList<>();
        for (final CaseResult result : first) {
            if (result.verdict() != Verdict.INCONCLUSIVE && result.verdict() != Verdict.FAIL) {
                results.add(result);
                continue;
            }
            final List<CaseResult> again = CaseRunner.run(
                    device,
                    RunOptions.defaults()
                            .withSelection(
                                    new Selection(List.of(), Set.of(), Set.of(), Set.of(), List.of(result.caseId()))),
                    ignored -> {});
            results.addAll(again.isEmpty() ? List.of(result) : again);
        }
        return results;
    }

    /**
     * What makes {@code metaroce run} exit other than 0: a FAIL, an ERROR, an INCONCLUSIVE on a MUST clause (but for
     * the cases {@link #STILL_UNDECIDED} names, which may not FAIL either).
     */
    private static void assertExitZero(
            final DeviceUnderTest device, final List<CaseResult> results, final Set<String> stillUndecided) {
        assertThat(results).as("cases run against %s", device.name()).isNotEmpty();
        results.forEach(r -> System.out.printf(
                "[%s] %s %s %s%n",
                device.name(), r.verdict(), r.caseId(), r.verdict() == Verdict.PASS ? "" : r.message()));
        final List<String> blocking = results.stream()
                .filter(r -> VariantSelfTest.blocks(r)
                        && !(r.verdict() == Verdict.INCONCLUSIVE && stillUndecided.contains(r.caseId())))
                .map(r -> r.caseId() + ": " + r.verdict() + " " + r.message())
                .toList();
        assertThat(blocking)
                .as("verdicts that keep %s from exit 0", device.name())
                .isEmpty();
    }

    static DutProfile.Parameters withWindows(final DutProfile.Parameters p, final int path, final int connection) {
        final DutProfile.Congestion c = p.congestion();
        return new DutProfile.Parameters(
                p.dut(),
                p.tester(),
                p.mtu(),
                p.paths(),
                p.initialSendPsn(),
                p.initialReceivePsn(),
                p.timers(),
                new DutProfile.Congestion(
                        c.decreaseFactor(),
                        c.linkRateMbps(),
                        c.targetUtilization(),
                        c.hintInterval(),
                        path,
                        connection,
                        c.undeclared(),
                        c.activeWindow()));
    }

    /**
     * The reference in memory, as {@link EmbeddedReferenceDut} runs it, with initial windows of its own: the standard
     * configuration cannot be told other windows, so this test wires the soft DUT to a queue link itself.
     */
    static final class Windowed implements AutoCloseable {
        private static final int TESTER_PORT = 54796;
        private final SoftDut dut;
        private final QueueWireLink link;
        private final JsonLineControlClient control;
        private final DeviceUnderTest device;

        private Windowed(final SoftDutOptions options, final int path, final int connection) throws Exception {
            final InetAddress dutAddress = InetAddress.getByName("127.0.0.1");
            final InetAddress testerAddress = InetAddress.getByName("127.0.0.2");
            final InetSocketAddress dutPort = new InetSocketAddress(dutAddress, WireConstants.DEFAULT_UDP_PORT);
            final InetSocketAddress testerPort = new InetSocketAddress(testerAddress, TESTER_PORT);
            final SoftDut[] device = new SoftDut[1];
            this.link = new QueueWireLink(
                    testerPort,
                    dutPort,
                    datagram -> device[0].deliver(
                            datagram.payload(),
                            datagram.source().getAddress(),
                            datagram.source().getPort(),
                            datagram.ecn().codepoint()),
                    System::nanoTime);
            this.dut = SoftDut.inMemory(
                    options,
                    (packet, destination, destinationPort, sourcePort, ecn) -> link.deliverFromDut(new Datagram(
                            packet,
                            new InetSocketAddress(dutAddress, sourcePort),
                            new InetSocketAddress(destination, destinationPort),
                            Ecn.fromCodepoint(ecn))));
            device[0] = dut;
            this.control = new JsonLineControlClient(dut::control);
            final DutProfile bundled = new DutProfileLoader().loadBundled("reference-udp");
            final DutProfile.Conformance udp = bundled.conformance();
            final List<String> optional = new ArrayList<>(udp.optionalClauses());
            optional.add("8.1.6"); // the in-memory link keeps each packet's source port (EmbeddedReferenceDut)
            this.device = new DeviceUnderTest(
                    "embedded reference with initial windows " + path + "/" + connection,
                    control,
                    link,
                    bundled.withConformance(new DutProfile.Conformance(
                                    udp.profiles(), optional, udp.limits(), udp.reorderTolerance()))
                            .withLink(DutProfile.Link.embedded())
                            .withControl(Optional.empty())
                            .withParameters(withWindows(
                                    bundled.parameters().withDut(dutPort).withTester(testerPort), path, connection)));
        }

        static Windowed start(final int path, final int connection) throws Exception {
            final EndpointConfig defaults = SoftDutOptions.builder().build().endpoint();
            final EndpointConfig endpoint = defaults.toBuilder()
                    .windows(path, connection, defaults.maxConnectionWindow())
                    .features(EnumSet.allOf(Feature.class))
                    .build();
            return new Windowed(
                    SoftDutOptions.builder()
                            .bindAddress(InetAddress.getByName("127.0.0.1"))
                            .udpPort(WireConstants.DEFAULT_UDP_PORT)
                            .controlPort(-1)
                            .endpoint(endpoint)
                            .build(),
                    path,
                    connection);
        }

        DeviceUnderTest device() {
            return device;
        }

        @Override
        public void close() {
            control.close();
            link.close();
            dut.close();
        }
    }
}
