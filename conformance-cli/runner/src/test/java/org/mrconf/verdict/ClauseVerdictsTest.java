package org.mrconf.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClauseVerdictsTest {
    private static final ClauseVerdicts.ClauseInfo INFO = new ClauseVerdicts.ClauseInfo() {
        @Override
        public String title(final String clauseId) {
            return "title of " + clauseId;
        }

        @Override
        public String level(final String clauseId) {
            return "MUST";
        }

        @Override
        public String profile(final String clauseId) {
            return "core";
        }
    };

    @Test
    void shouldTakeTheWorstVerdictInTheOrderFailErrorInconclusiveWarnPass() {
        final List<Verdict> ascending =
                List.of(Verdict.PASS, Verdict.WARN, Verdict.INCONCLUSIVE, Verdict.ERROR, Verdict.FAIL);
        for (int worse = 1; worse < ascending.size(); worse++) {
            for (int better = 0; better < worse; better++) {
                final Verdict a = ascending.get(better);
                final Verdict b = ascending.get(worse);
                assertThat(verdictOf(result("c1", a, "first"), result("c2", b, "second")))
                        .as("%s then %s", a, b)
                        .isEqualTo(b);
                assertThat(verdictOf(result("c1", b, "first"), result("c2", a, "second")))
                        .as("%s then %s", b, a)
                        .isEqualTo(b);
            }
        }
    }

    @Test
    void shouldNeverOverwriteAFailAndKeepItsReason() {
        final ClauseResult clause = combine(
                        result("c1", Verdict.FAIL, "the first failure"),
                        result("c2", Verdict.ERROR, "a harness error"),
                        result("c3", Verdict.FAIL, "a second failure"),
                        result("c4", Verdict.PASS, ""))
                .get(0);

        assertThat(clause.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(clause.reason()).isEqualTo("the first failure");
        assertThat(clause.caseIds()).containsExactly("c1", "c2", "c3", "c4");
    }

    @Test
    void shouldKeepTheFirstReasonOfTheWinningVerdict() {
        final ClauseResult clause = combine(
                        result("c1", Verdict.WARN, "first warning"),
                        result("c2", Verdict.INCONCLUSIVE, "first inconclusive"),
                        result("c3", Verdict.INCONCLUSIVE, "second inconclusive"))
                .get(0);

        assertThat(clause.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(clause.reason()).isEqualTo("first inconclusive");
    }

    @Test
    void shouldBeNotApplicableOnlyWhenEveryCaseIs() {
        assertThat(verdictOf(result("c1", Verdict.NOT_APPLICABLE, "no read"), result("c2", Verdict.NOT_APPLICABLE, "")))
                .isEqualTo(Verdict.NOT_APPLICABLE);
        assertThat(verdictOf(result("c1", Verdict.NOT_APPLICABLE, "no read"), result("c2", Verdict.PASS, "")))
                .isEqualTo(Verdict.PASS);
        assertThat(verdictOf(result("c1", Verdict.PASS, ""), result("c2", Verdict.NOT_APPLICABLE, "no read")))
                .isEqualTo(Verdict.PASS);
    }

    @Test
    void shouldGiveAPassNoReasonAndOrderClausesAsTheCatalogueDoes() {
        final List<ClauseResult> clauses = ClauseVerdicts.combine(
                List.of(
                        result("c1", Verdict.PASS, "", "9.1.1"),
                        result("c2", Verdict.PASS, "", "10.1.1"),
                        result("c3", Verdict.PASS, "", "99.9.9")),
                INFO,
                List.of("9.1.1", "10.1.1"));

        assertThat(clauses).extracting(ClauseResult::clauseId).containsExactly("9.1.1", "10.1.1", "99.9.9");
        assertThat(clauses).allSatisfy(c -> assertThat(c.reason()).isEmpty());
        assertThat(clauses.get(0).title()).isEqualTo("title of 9.1.1");
    }

    @Test
    void shouldShowAClauseWithAPassAndALinkNotApplicableCaseAsPartialNamingTheMissingPurpose() {
        final String link =
                org.mrconf.cases.Applicability.LINK_CANNOT + "this link cannot see the ECN field of received packets";
        final ClauseResult clause = combine(
                        result("EncapsulationCase.dataIsEcnCapable", Verdict.NOT_APPLICABLE, link),
                        result("ReceivedCeCase.ceIsCounted", Verdict.PASS, ""))
                .get(0);

        assertThat(clause.verdict()).isEqualTo(Verdict.PASS);
        assertThat(clause.partial()).isTrue();
        assertThat(clause.label()).isEqualTo("PASS (partial)");
        assertThat(clause.notExercised())
                .containsExactly(new ClauseResult.NotExercised(
                        "EncapsulationCase.dataIsEcnCapable", Verdict.NOT_APPLICABLE, link));
        assertThat(clause.notExercisedSummary())
                .isEqualTo("EncapsulationCase.dataIsEcnCapable (NOT_APPLICABLE: " + link + ")");
    }

    @Test
    void shouldShowAClauseWhoseCaseTheDeviceConfigurationSetAsideAsPartial() {
        final ClauseResult clause = combine(
                        result("c1", Verdict.PASS, ""),
                        result("c2", Verdict.NOT_APPLICABLE, "the device offers one path per connection"))
                .get(0);

        assertThat(clause.partial()).isTrue();
        assertThat(clause.notExercised())
                .extracting(ClauseResult.NotExercised::caseId)
                .containsExactly("c2");
    }

    @Test
    void shouldNotCountACaseTheDeviceDoesNotClaimAsAMissingPurpose() {
        final ClauseResult clause = combine(
                        result("c1", Verdict.PASS, ""),
                        result(
                                "c2",
                                Verdict.NOT_APPLICABLE,
                                "clause 7.6.1 belongs to profile 'streams', which the device does not claim"),
                        result("c3", Verdict.NOT_APPLICABLE, "the device does not claim the congestion profile"),
                        result(
                                "c4",
                                Verdict.NOT_APPLICABLE,
                                "clause 9.9.9 is a MAY clause the device does not declare"),
                        result(
                                "c5",
                                Verdict.NOT_APPLICABLE,
                                org.mrconf.cases.Applicability.CLAIMS_MORE + "it claims the read profile"))
                .get(0);

        assertThat(clause.verdict()).isEqualTo(Verdict.PASS);
        assertThat(clause.partial()).isFalse();
        assertThat(clause.label()).isEqualTo("PASS");
        assertThat(clause.notExercised()).isEmpty();
    }

    @Test
    void shouldMakeAClauseOfAnUnclaimedProfileNotApplicableAndNotPartial() {
        final String unclaimed = "clause 6.4.1 belongs to profile 'congestion', which the device does not claim";
        final ClauseResult clause = combine(
                        result("c1", Verdict.NOT_APPLICABLE, unclaimed),
                        result("c2", Verdict.NOT_APPLICABLE, unclaimed))
                .get(0);

        assertThat(clause.verdict()).isEqualTo(Verdict.NOT_APPLICABLE);
        assertThat(clause.partial()).isFalse();
        assertThat(clause.unexercised()).isFalse();
        assertThat(clause.label()).isEqualTo("NOT_APPLICABLE");
    }

    @Test
    void shouldSayWhenAClauseThatAppliesWasNotExercisedAtAll() {
        final ClauseResult clause = combine(result(
                        "UdpChecksumCase.overIpv4",
                        Verdict.NOT_APPLICABLE,
                        org.mrconf.cases.Applicability.LINK_CANNOT + "needs raw Ethernet"))
                .get(0);

        assertThat(clause.verdict()).isEqualTo(Verdict.NOT_APPLICABLE);
        assertThat(clause.unexercised()).isTrue();
        assertThat(clause.partial()).isFalse();
        assertThat(clause.label()).isEqualTo("NOT_APPLICABLE (not exercised)");
    }

    @Test
    void shouldGiveAPlainPassWhenEveryCasePassed() {
        final ClauseResult clause = combine(result("c1", Verdict.PASS, ""), result("vector:6.4.1/x", Verdict.PASS, ""))
                .get(0);

        assertThat(clause.verdict()).isEqualTo(Verdict.PASS);
        assertThat(clause.partial()).isFalse();
        assertThat(clause.notExercised()).isEmpty();
        assertThat(clause.label()).isEqualTo("PASS");
    }

    @Test
    void shouldListInconclusiveAndErrorCasesAsNotExercisedWithoutCallingAFailPartial() {
        final ClauseResult clause = combine(
                        result("c1", Verdict.FAIL, "broken"),
                        result("c2", Verdict.INCONCLUSIVE, "a stall of 40 ms"),
                        result("vector:6.4.1/v", Verdict.ERROR, "the link died"))
                .get(0);

        assertThat(clause.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(clause.partial()).isFalse();
        assertThat(clause.label()).isEqualTo("FAIL");
        assertThat(clause.notExercised())
                .extracting(ClauseResult.NotExercised::caseId)
                .containsExactly("c2", "vector:6.4.1/v");
    }

    private static Verdict verdictOf(final CaseResult... cases) {
        return combine(cases).get(0).verdict();
    }

    private static List<ClauseResult> combine(final CaseResult... cases) {
        return ClauseVerdicts.combine(List.of(cases), INFO, List.of("6.4.1"));
    }

    private static CaseResult result(final String id, final Verdict verdict, final String message) {
        return result(id, verdict, message, "6.4.1");
    }

    private static CaseResult result(
            final String id, final Verdict verdict, final String message, final String clause) {
        return new CaseResult(
                id, id, List.of(clause), CaseKind.VALID, verdict, message, Instant.EPOCH, 0, Evidence.NONE);
    }
}
