package org.mrconf.bundle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.Clause;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.catalogue.Level;
import org.mrconf.report.ReportWriters;
import org.mrconf.verdict.CaseKind;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.ClauseVerdicts;
import org.mrconf.verdict.Evidence;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;

/**
 * Run folders for the bundle tests, written by the report module's own writer from run records made of the suite's
 * real cases: a clean run where every case of the reference's claims passes, and variations of it (a defect
 * profile, an interrupted run, a cherry-picked selection, a failure).
 */
public final class BundleRuns {
    static final Instant START = Instant.parse("2026-11-30T10:00:00Z");
    static final SuiteIdentity SUITE = new SuiteIdentity("0.1.0-TEST", "0123456789abcdef0123456789abcdef01234567");
    /** What the reference soft DUT's profile claims (spec-cases/src/main/resources/profiles/reference-udp.json). */
    static final List<String> CLAIMS = List.of("core", "multipath", "streams", "read", "immediate", "congestion");

    static final List<String> OPTIONAL =
            List.of("4.1.5", "6.4.3", "8.1.6", "8.2.4", "9.1.5", "10.1.3", "10.1.5", "10.2.2", "11.2.3");

    static final ClauseCatalogue CATALOGUE = loadCatalogue();
    /** The suite's cases, scanned once. */
    static final SuiteCases CASES = SuiteCases.discover();

    private BundleRuns() {}

    /** A finished run of every case of the suite, each PASS. */
    static RunRecord clean() {
        return run(List.of(), false, Optional.of(START.plusSeconds(30)), Map.of(), c -> true);
    }

    /**
     * The first case of the clean run whose clauses are all MUST clauses: a FAIL of it fails a clause a bundle must
     * not carry failed, whatever the device lists (the suite's first case may verify a SHOULD clause).
     */
    static String firstMustCase() {
        return clean().cases().stream()
                .filter(c -> c.clauses().stream()
                        .allMatch(id -> CATALOGUE.find(id).orElseThrow().level() == Level.MUST))
                .findFirst()
                .orElseThrow()
                .caseId();
    }

    /** The clean run as a given suite build would record it. */
    public static RunRecord cleanBy(final SuiteIdentity suite) {
        final RunRecord r = clean();
        return new RunRecord(
                suite.version(),
                suite.commit(),
                r.specVersion(),
                r.commandLine(),
                r.dut(),
                r.startedAt(),
                r.finishedAt(),
                r.interrupted(),
                r.selection(),
                r.cases(),
                r.clauses());
    }

    /** The clean run against a device with a planted defect switched on. */
    static RunRecord withDefect(final String defect) {
        return run(List.of(defect), false, Optional.of(START.plusSeconds(30)), Map.of(), c -> true);
    }

    /** A run cut short by SIGINT after its first two cases. */
    static RunRecord interrupted() {
        final List<String> firstTwo =
                CASES.all().stream().limit(2).map(SuiteCases.SuiteCase::id).toList();
        return run(List.of(), true, Optional.of(START.plusSeconds(5)), Map.of(), c -> firstTwo.contains(c.id()));
    }

    /** A run whose selection took only the cases that verify a section 6 clause. */
    static RunRecord onlySection6() {
        return run(
                List.of(),
                false,
                Optional.of(START.plusSeconds(30)),
                Map.of("clause", "6.*"),
                c -> c.clauses().stream().anyMatch(id -> id.startsWith("6.")));
    }

    /** The clean run with one case's verdict replaced. */
    static RunRecord withVerdict(final String caseId, final Verdict verdict, final String message) {
        final RunRecord clean = clean();
        final List<CaseResult> cases = new ArrayList<>();
        for (final CaseResult c : clean.cases()) {
            cases.add(
                    c.caseId().equals(caseId)
                            ? new CaseResult(
                                    c.caseId(),
                                    c.title(),
                                    c.clauses(),
                                    c.kind(),
                                    verdict,
                                    message,
                                    c.startedAt(),
                                    c.durationNs(),
                                    c.evidence())
                            : c);
        }
        return withCases(clean, cases);
    }

    static RunRecord withCases(final RunRecord r, final List<CaseResult> cases) {
        return new RunRecord(
                r.suiteVersion(),
                r.suiteCommit(),
                r.specVersion(),
                r.commandLine(),
                r.dut(),
                r.startedAt(),
                r.finishedAt(),
                r.interrupted(),
                r.selection(),
                cases,
                ClauseVerdicts.combine(cases, VerdictConsistencyCheck.info(CATALOGUE), clauseOrder()));
    }

    /** Writes the run folder with the report module's writer. */
    public static Path write(final Path dir, final RunRecord record) throws IOException {
        ReportWriters.writeAll(dir, record);
        final Path html = dir.resolve(ReportWriters.REPORT_HTML);
        if (!Files.exists(html)) {
            // The report module does not write report.html yet; the bundle carries whatever the run wrote.
            Files.writeString(html, "<!doctype html><title>report</title>\n", StandardCharsets.UTF_8);
        }
        return dir;
    }

    /** The suite cases the clean run includes: those whose clauses all apply to the reference's claims. */
    static boolean appliesToReference(final SuiteCases.SuiteCase c) {
        final Set<String> claims = Set.copyOf(CLAIMS);
        for (final String id : c.clauses()) {
            final Clause clause = CATALOGUE.find(id).orElseThrow();
            if (!claims.contains(clause.profile().specName())
                    || (clause.level() == Level.MAY && !OPTIONAL.contains(id))) {
                return false;
            }
        }
        return true;
    }

    private static RunRecord run(
            final List<String> defects,
            final boolean interrupted,
            final Optional<Instant> finishedAt,
            final Map<String, String> selection,
            final Predicate<SuiteCases.SuiteCase> selected) {
        final List<CaseResult> cases = new ArrayList<>();
        long offsetMs = 0;
        for (final SuiteCases.SuiteCase c : CASES.all()) {
            if (!selected.test(c)) {
                continue;
            }
            final boolean applies = appliesToReference(c);
            cases.add(new CaseResult(
                    c.id(),
                    c.id() + " behaves as its clauses say",
                    c.clauses(),
                    CaseKind.VALID,
                    applies ? Verdict.PASS : Verdict.NOT_APPLICABLE,
                    applies ? "" : "the device does not claim what this case needs",
                    START.plusMillis(offsetMs += 250),
                    200_000_000L,
                    Evidence.NONE));
        }
        final RunRecord.DutDescription dut = new RunRecord.DutDescription(
                "reference",
                "MetaRoCE Open Conformance",
                "embedded reference",
                "0.1.0",
                "java",
                CLAIMS,
                OPTIONAL,
                defects,
                Map.of("mtu", "4176", "paths", "4"),
                "embedded");
        return new RunRecord(
                SUITE.version(),
                SUITE.commit(),
                CATALOGUE.specVersion(),
                "metaroce run --out reports/runs/test" + (selection.isEmpty() ? "" : " --clause 6.*"),
                dut,
                START,
                finishedAt,
                interrupted,
                selection,
                cases,
                ClauseVerdicts.combine(cases, VerdictConsistencyCheck.info(CATALOGUE), clauseOrder()));
    }

    private static List<String> clauseOrder() {
        return CATALOGUE.clauses().stream().map(Clause::id).toList();
    }

    private static ClauseCatalogue loadCatalogue() {
        try {
            return new CatalogueLoader().loadBundled();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
