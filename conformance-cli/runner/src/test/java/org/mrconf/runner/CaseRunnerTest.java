package org.mrconf.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.embedded.EmbeddedReferenceDut;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Verdict;

class CaseRunnerTest {
    private static final String FIXTURES = "org.mrconf.runner.fixtures";

    @Test
    @Timeout(60)
    void shouldRecordTheCasesOfAClassWhoseSetUpFailedAsErrors() throws Exception {
        try (EmbeddedReferenceDut embedded = EmbeddedReferenceDut.start()) {
            final List<CaseResult> results = CaseRunner.run(
                    embedded.device(),
                    RunOptions.defaults().withSelection(byCase("BrokenSetUpCase.*")),
                    r -> {},
                    FIXTURES);

            assertThat(results)
                    .extracting(CaseResult::caseId)
                    .containsExactlyInAnyOrder("BrokenSetUpCase.first", "BrokenSetUpCase.second");
            assertThat(results).allSatisfy(r -> {
                assertThat(r.verdict()).isEqualTo(Verdict.ERROR);
                assertThat(r.message()).contains("the class's set-up broke");
            });
        }
    }

    @Test
    @Timeout(60)
    void shouldMarkACaseOfAnUnclaimedProfileNotApplicableWithTheReason() throws Exception {
        try (EmbeddedReferenceDut embedded = EmbeddedReferenceDut.start()) {
            final DeviceUnderTest coreOnly =
                    embedded.device(claimingOnly(embedded.device().profile(), Profile.CORE));

            final List<CaseResult> results = CaseRunner.run(
                    coreOnly, RunOptions.defaults().withSelection(byCase("ReadOnlyCase.*")), r -> {}, FIXTURES);

            assertThat(results).singleElement().satisfies(r -> {
                assertThat(r.verdict()).isEqualTo(Verdict.NOT_APPLICABLE);
                assertThat(r.message()).contains("7.4.1", "'read'", "does not claim");
            });
        }
    }

    @Test
    @Timeout(60)
    void shouldEndEveryCaseAsErrorAtOnceWhenTheDeviceIsGone() throws Exception {
        try (EmbeddedReferenceDut embedded = EmbeddedReferenceDut.start()) {
            final DeviceUnderTest device = embedded.device();
            // A device that answered nothing at all from the first case on.
            final List<CaseResult> results = CaseRunner.run(
                    device.withLink(new MuteLink(device.link())),
                    RunOptions.defaults()
                            .withSelection(byCase("IntegrityCase.*"))
                            .withLiveness(() -> java.util.Optional.of("the agent is gone")),
                    r -> {});

            assertThat(results)
                    .hasSizeGreaterThan(1)
                    .allSatisfy(r -> assertThat(r.verdict()).isEqualTo(Verdict.ERROR));
            assertThat(results.get(0).message()).startsWith("the device was lost during the case: the agent is gone");
            assertThat(results.get(1).message()).startsWith("device under test lost: the agent is gone");
            assertThat(results.subList(1, results.size()))
                    .allSatisfy(r -> assertThat(r.durationNs()).isZero());
        }
    }

    @Test
    void shouldRefuseASelectionThatMatchesNothing() {
        try (EmbeddedReferenceDut embedded = EmbeddedReferenceDut.start()) {
            assertThatThrownBy(() -> CaseRunner.run(
                            embedded.device(), RunOptions.defaults().withSelection(byCase("NoSuchCase.*")), r -> {}))
                    .isInstanceOf(NoCasesSelected.class)
                    .hasMessageContaining("NoSuchCase.*");
        }
    }

    @Test
    @Timeout(120)
    void shouldRunTheVectorsAloneWhenTheCaseSelectionNamesOnlyVectors() throws Exception {
        try (EmbeddedReferenceDut embedded = EmbeddedReferenceDut.start()) {
            final List<CaseResult> results = CaseRunner.run(
                    embedded.device(),
                    RunOptions.defaults()
                            .withSelection(byCase("vector:7.4.*"))
                            .withVectorRoot(
                                    java.nio.file.Path.of(System.getProperty("mrconf.root", "../.."), "test-vectors")),
                    r -> {});
            // The vectors of folders 7.4.x and nothing else, whatever the corpus holds there (it grows).
            assertThat(results)
                    .extracting(CaseResult::caseId)
                    .contains("vector:7.4.1/read-request-answered", "vector:7.4.2/read-answered-out-of-order")
                    .allMatch(id -> id.startsWith("vector:7.4."));
            assertThat(results).extracting(CaseResult::verdict).containsOnly(Verdict.PASS);
            assertThatThrownBy(() -> CaseRunner.run(
                            embedded.device(),
                            RunOptions.defaults()
                                    .withSelection(byCase("vector:9.9.*"))
                                    .withVectorRoot(java.nio.file.Path.of(
                                            System.getProperty("mrconf.root", "../.."), "test-vectors")),
                            r -> {}))
                    .isInstanceOf(NoCasesSelected.class);
        }
    }

    @Test
    @Timeout(120)
    void shouldReplayAClausesVectorsBesideItsCases() throws Exception {
        try (EmbeddedReferenceDut embedded = EmbeddedReferenceDut.start()) {
            final List<CaseResult> results = CaseRunner.run(
                    embedded.device(),
                    RunOptions.defaults()
                            .withSelection(new Selection(List.of("7.4.2"), Set.of(), Set.of(), Set.of(), List.of()))
                            .withVectorRoot(
                                    java.nio.file.Path.of(System.getProperty("mrconf.root", "../.."), "test-vectors")),
                    r -> {});
            assertThat(results)
                    .extracting(CaseResult::caseId)
                    .contains(
                            "vector:7.4.2/read-answered-out-of-order",
                            "ReadCase.requesterPlacesOnArrivalAndCompletesOnAllBytes")
                    .noneMatch(id -> id.startsWith("vector:") && !id.startsWith("vector:7.4.2/"));
        }
    }

    private static Selection byCase(final String pattern) {
        return new Selection(List.of(), Set.of(), Set.of(), Set.of(), List.of(pattern));
    }

    private static DeviceDeclaration claimingOnly(final DeviceDeclaration profile, final Profile claimed) {
        final DeviceDeclaration.Conformance c = profile.conformance();
        return new DeviceDeclaration(
                profile.identity(),
                new DeviceDeclaration.Conformance(
                        Set.of(claimed), c.optionalClauses(), c.limits(), c.reorderTolerance()),
                profile.parameters(),
                profile.control(),
                profile.link());
    }
}
