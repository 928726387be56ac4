package org.mrconf.analyze;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.mrconf.catalogue.Clause;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.catalogue.Level;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.verdict.CaseKind;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Evidence;
import org.mrconf.verdict.Verdict;

/**
 * Turns what the analyser found into case verdicts, one per end and check, under the suite's verdict model: a
 * violation of a MUST clause is FAIL, of a SHOULD clause WARN; a clause the capture held nothing to judge on is
 * INCONCLUSIVE; a clause of a profile the end's declarations do not claim is NOT_APPLICABLE; and where no
 * declarations were given, a violation of a clause outside the core profile is INCONCLUSIVE, since whether it is a
 * failure depends on a claim nobody made.
 */
final class AnalysisVerdicts {
    private final ClauseCatalogue catalogue;
    private final Map<String, DeviceDeclaration> declarations;
    private final Optional<DeviceDeclaration> everyEnd;

    /**
     * @param declarations what an end declares, by end ({@code address:port}) or by address for every end at it
     * @param everyEnd what every end not named in {@code declarations} declares, if anything
     */
    AnalysisVerdicts(
            final ClauseCatalogue catalogue,
            final Map<String, DeviceDeclaration> declarations,
            final Optional<DeviceDeclaration> everyEnd) {
        this.catalogue = catalogue;
        this.declarations = Map.copyOf(declarations);
        this.everyEnd = everyEnd;
    }

    List<CaseResult> cases(final Findings findings, final Instant startedAt) {
        final List<CaseResult> cases = new ArrayList<>();
        for (final var end : findings.byEnd().entrySet()) {
            for (final Check check : Check.values()) {
                final Findings.Tally tally = end.getValue().get(check);
                cases.add(result(end.getKey(), check, tally == null ? new Findings.Tally() : tally, startedAt));
            }
        }
        return cases;
    }

    private CaseResult result(
            final String end, final Check check, final Findings.Tally tally, final Instant startedAt) {
        final Clause clause = catalogue
                .find(check.clause())
                .orElseThrow(() -> new IllegalStateException(
                        "the analyser checks clause " + check.clause() + ", which the catalogue does not hold"));
        final Optional<DeviceDeclaration> declared = Optional.ofNullable(declarations.get(end))
                .or(() -> Optional.ofNullable(declarations.get(CaptureAnalyzer.address(end))))
                .or(() -> everyEnd);
        Verdict verdict;
        String message;
        if (declared.isPresent() && !applies(declared.get(), clause)) {
            verdict = Verdict.NOT_APPLICABLE;
            message = clause.level() == Level.MAY
                    ? "the end does not declare the MAY clause " + clause.id()
                    : "the end does not claim the " + clause.profile().specName() + " profile";
        } else if (tally.violations > 0) {
            final String first = tally.kept.get(0).what() + " (frames " + frames(tally.kept.get(0)) + ")";
            message = tally.violations + " of " + tally.judged + " judged packets broke clause " + clause.id()
                    + "; first: " + first;
            if (declared.isEmpty() && clause.profile() != Profile.CORE) {
                verdict = Verdict.INCONCLUSIVE;
                message = message + ". Whether that is a failure depends on whether the end claims the "
                        + clause.profile().specName() + " profile: give --profile";
            } else {
                verdict = clause.level() == Level.MUST ? Verdict.FAIL : Verdict.WARN;
            }
        } else if (tally.judged == 0) {
            verdict = Verdict.INCONCLUSIVE;
            message = "the capture holds nothing from this end that clause " + clause.id() + " can be judged on";
        } else {
            verdict = Verdict.PASS;
            message = "";
        }
        return new CaseResult(
                caseIdPrefix(end) + check.name().toLowerCase(java.util.Locale.ROOT),
                end + " " + check.description(),
                List.of(clause.id()),
                CaseKind.VALID,
                verdict,
                message,
                startedAt,
                0,
                evidence(check, tally, verdict));
    }

    /** How the case ids of one end begin: {@code analyze[address:port].}. */
    static String caseIdPrefix(final String end) {
        return "analyze[" + end + "].";
    }

    private static boolean applies(final DeviceDeclaration declared, final Clause clause) {
        if (!declared.claims(clause.profile())) {
            return false;
        }
        return clause.level() != Level.MAY || declared.implementsOptional(clause.id());
    }

    private static Evidence evidence(final Check check, final Findings.Tally tally, final Verdict verdict) {
        if (tally.kept.isEmpty() || verdict == Verdict.PASS || verdict == Verdict.NOT_APPLICABLE) {
            return Evidence.NONE;
        }
        final List<Evidence.PacketRecord> packets = new ArrayList<>();
        for (final Findings.Violation violation : tally.kept) {
            for (final long frame : violation.frames()) {
                packets.add(new Evidence.PacketRecord(0, "capture", "frame " + frame + ": " + violation.what(), ""));
            }
        }
        return new Evidence(check.description(), tally.kept.get(0).what(), packets, Optional.empty());
    }

    private static String frames(final Findings.Violation violation) {
        return Arrays.stream(violation.frames()).mapToObj(Long::toString).collect(Collectors.joining(", "));
    }
}
