package org.mrconf.cli.dut;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.embedded.EmbeddedReferenceDut;
import org.mrconf.runner.CaseRunner;
import org.mrconf.runner.MuteLink;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Verdict;

/**
 * A guard against cases that pass vacuously: against a device whose answers never reach the tester, no case may
 * pass, including those that check that something is NOT sent (each of them also checks that the device still answers
 * a correct packet afterwards), except those that need no wire at all. A case may instead be INCONCLUSIVE (it saw nothing it could judge, e.g. a timer case
 * that needs the DUT's packets to measure) or NOT_APPLICABLE (the link cannot carry it out), and most must FAIL.
 */
class CasesCanFailTest {
    /**
     * Cases that judge the device's declarations over the control channel alone (hello against its profile): the
     * wire link is not theirs to need, so a mute link rightly leaves their verdict as it is.
     */
    private static final java.util.Map<String, String> CONTROL_ONLY = java.util.Map.of(
            "DeclarationsCase.conformanceStatementIsComplete",
            "compares hello's identity, optional clauses and limits with the profile; sends no packet");

    @Test
    @Timeout(900)
    void shouldFailEveryCaseAgainstAMuteDevice() throws Exception {
        try (EmbeddedReferenceDut embedded = EmbeddedReferenceDut.start()) {
            final DeviceUnderTest real = embedded.device();
            final DeviceUnderTest mute = real.withLink(new MuteLink(real.link()));

            final List<CaseResult> results = CaseRunner.run(mute, result -> {});

            assertThat(results)
                    .filteredOn(r -> r.verdict() == Verdict.FAIL)
                    .as("cases that fail against a mute device")
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
}
