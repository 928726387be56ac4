package org.mrconf.cli.dut;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.embedded.EmbeddedReferenceDut;
import org.mrconf.runner.CaseRunner;
import org.mrconf.runner.MuteLink;
import org.mrconf.runner.RunOptions;
import org.mrconf.runner.Selection;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Verdict;

/**
 * A guard against cases that pass vacuously: against a device whose wire is cut both ways (its control channel still
 * works), no case may pass, including those that check that something is NOT sent (each of them also checks that the
 * device still answers a correct packet afterwards), except those that need no wire at all. A case may instead be
 * INCONCLUSIVE (it saw nothing it could judge, e.g. a timer case that needs the DUT's packets to measure) or
 * NOT_APPLICABLE (the link cannot carry it out), and most must FAIL.
 *
 * <p>The cases mostly wait here (each for packets that never come), so the run is split by case class over a few
 * embedded devices at once, as {@code metaroce selftest} does.
 */
class CasesCanFailTest {
    /**
     * Cases that judge the device's declarations over the control channel alone (hello against its profile): the
     * wire link is not theirs to need, so a cut link rightly leaves their verdict as it is.
     */
    private static final Map<String, String> CONTROL_ONLY = Map.of(
            "DeclarationsCase.conformanceStatementIsComplete",
            "compares hello's identity, optional clauses and limits with the profile; sends no packet",
            "DeclarationAgreementCase.helloAndProfileDeclareTheSame",
            "compares hello's claims and timers with the declaration file; sends no packet",
            "DeclarationAgreementCase.congestionParametersAreDeclared",
            "compares hello's congestion parameters with the declaration file; sends no packet");

    /** Runs at once; each has its own embedded device. */
    private static final int PARTS = 16;

    @Test
    @Timeout(600)
    void shouldFailEveryCaseAgainstADeviceWhoseWireIsCut() throws Exception {
        final ExecutorService pool = Executors.newFixedThreadPool(PARTS);
        final List<Future<List<CaseResult>>> parts = new ArrayList<>();
        try {
            for (final List<String> classes : balancedParts()) {
                final Selection selection = new Selection(List.of(), Set.of(), Set.of(), Set.of(), classes);
                parts.add(pool.submit(() -> {
                    try (EmbeddedReferenceDut embedded = EmbeddedReferenceDut.start()) {
                        final DeviceUnderTest real = embedded.device();
                        final DeviceUnderTest cut = real.withLink(MuteLink.cut(real.link()));
                        return CaseRunner.run(cut, RunOptions.defaults().withSelection(selection), result -> {});
                    }
                }));
            }
            final List<CaseResult> results = new ArrayList<>();
            for (final Future<List<CaseResult>> part : parts) {
                results.addAll(part.get());
            }
            judge(results);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The case classes split into {@link #PARTS} parts of about as many cases each (largest class first into the part
     * with the fewest), so that the parts, which mostly wait, end at about the same time; together they hold every
     * case exactly once, as patterns {@code ClassName.*}.
     */
    private static List<List<String>> balancedParts() {
        final TestPlan plan = LauncherFactory.create()
                .discover(LauncherDiscoveryRequestBuilder.request()
                        .selectors(DiscoverySelectors.selectPackage("org.mrconf.cases"))
                        .build());
        final Map<String, Integer> casesByClass = new TreeMap<>();
        for (final TestIdentifier root : plan.getRoots()) {
            for (final TestIdentifier test : plan.getDescendants(root)) {
                if (test.isTest() && test.getSource().orElse(null) instanceof MethodSource method) {
                    final String name = method.getClassName();
                    casesByClass.merge(name.substring(name.lastIndexOf('.') + 1), 1, Integer::sum);
                }
            }
        }
        assertThat(casesByClass).as("the case classes found").hasSizeGreaterThan(PARTS);
        final List<List<String>> parts = new ArrayList<>();
        final int[] load = new int[PARTS];
        for (int part = 0; part < PARTS; part++) {
            parts.add(new ArrayList<>());
        }
        casesByClass.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .forEach(entry -> {
                    int lightest = 0;
                    for (int part = 1; part < PARTS; part++) {
                        lightest = load[part] < load[lightest] ? part : lightest;
                    }
                    parts.get(lightest).add(entry.getKey() + ".*");
                    load[lightest] += entry.getValue();
                });
        return parts;
    }

    private static void judge(final List<CaseResult> results) {
        assertThat(results.stream().map(CaseResult::caseId).distinct().count())
                .as("every case ran once")
                .isEqualTo(results.size());
        assertThat(results)
                .filteredOn(r -> r.verdict() == Verdict.FAIL)
                .as("cases that fail against a device whose wire is cut")
                .hasSizeGreaterThan(results.size() / 2);
        assertThat(results).isNotEmpty().allSatisfy(result -> {
            if (CONTROL_ONLY.containsKey(result.caseId())) {
                return;
            }
            assertThat(result.verdict())
                    .as("%s: %s", result.caseId(), result.message())
                    .isIn(Verdict.FAIL, Verdict.INCONCLUSIVE, Verdict.NOT_APPLICABLE);
            // A pcap slice is named exactly when there are packets for it.
            assertThat(result.evidence().pcapFile().isPresent())
                    .as(result.caseId())
                    .isEqualTo(!result.evidence().packets().isEmpty());
        });
        // The evidence a reviewer reads: the packets the tester sent before the case failed.
        assertThat(results)
                .filteredOn(r -> !r.evidence().packets().isEmpty())
                .hasSizeGreaterThan(results.size() / 2)
                .allSatisfy(r -> assertThat(r.evidence().pcapFile()).contains("evidence/" + r.caseId() + ".pcap"));
    }
}
