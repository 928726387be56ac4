package org.mrconf.report;

import java.time.Duration;
import java.util.Locale;
import java.util.TreeMap;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.Evidence;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;

/**
 * Turns a {@link RunRecord} into {@code junit.xml} for CI systems, valid against Surefire's
 * {@code surefire-test-report.xsd}: one {@code testsuite}, one {@code testcase} per case. Verdicts map to what JUnit
 * XML can say: FAIL is a {@code failure}, ERROR an {@code error}, NOT_APPLICABLE and INCONCLUSIVE are
 * {@code skipped} with the verdict in the message, PASS and WARN pass (a WARN prints its reason to
 * {@code system-out}). The XSD allows properties only on the suite, so each testcase carries its clause ids in its
 * {@code group} attribute and its verdict and clauses (with level, profile and the clause's verdict) as the first
 * lines of its {@code system-out}, which CI tools show per test; the suite properties
 * {@code metaroce.case.<id>.clauses} and {@code .verdict} say the same for tools that read those. A test vector is
 * classname {@code vector} with its whole id as name. No host system property is written.
 */
public final class JunitXmlReport {
    /** The id prefix of a test vector's result. */
    private static final String VECTOR_PREFIX = "vector:";

    private JunitXmlReport() {}

    /** The XML document, ending in a newline. */
    public static String toXml(final RunRecord record) {
        final VerdictCounts counts = VerdictCounts.of(record.cases(), CaseResult::verdict);
        final RunStatus status = RunStatus.of(record);
        final StringBuilder x = new StringBuilder(4096);
        x.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        x.append("<testsuite name=\"")
                .append(Markup.attr(suiteName(record, status)))
                .append("\" tests=\"")
                .append(counts.total())
                .append("\" failures=\"")
                .append(counts.get(Verdict.FAIL))
                .append("\" errors=\"")
                .append(counts.get(Verdict.ERROR))
                .append("\" skipped=\"")
                .append(counts.get(Verdict.NOT_APPLICABLE) + counts.get(Verdict.INCONCLUSIVE))
                .append("\" time=\"")
                .append(seconds(suiteNanos(record)))
                .append("\" timestamp=\"")
                .append(record.startedAt())
                .append("\">\n");
        x.append("  <properties>\n");
        property(x, "metaroce.status", status.label());
        property(x, "metaroce.interrupted", String.valueOf(record.interrupted()));
        property(x, "metaroce.suite.version", record.suiteVersion());
        property(x, "metaroce.suite.commit", record.suiteCommit());
        property(x, "metaroce.spec", "MetaRoCE Open Draft " + record.specVersion());
        property(x, "metaroce.commandLine", record.commandLine());
        property(x, "metaroce.startedAt", record.startedAt().toString());
        property(
                x,
                "metaroce.finishedAt",
                record.finishedAt().map(Object::toString).orElse(""));
        final RunRecord.DutDescription dut = record.dut();
        property(x, "metaroce.dut.name", dut.name());
        property(x, "metaroce.dut.vendor", dut.vendor());
        property(x, "metaroce.dut.model", dut.model());
        property(x, "metaroce.dut.firmware", dut.firmware());
        property(x, "metaroce.dut.driver", dut.driver());
        property(x, "metaroce.dut.link", dut.link());
        property(x, "metaroce.dut.profiles", String.join(",", dut.profiles()));
        property(x, "metaroce.dut.optionalClauses", String.join(",", dut.optionalClauses()));
        property(x, "metaroce.dut.defects", String.join(",", dut.defects()));
        new TreeMap<>(dut.parameters()).forEach((k, v) -> property(x, "metaroce.dut.parameter." + k, v));
        new TreeMap<>(record.selection()).forEach((k, v) -> property(x, "metaroce.selection." + k, v));
        for (final ClauseResult c : record.clauses()) {
            property(
                    x,
                    "metaroce.clause." + c.clauseId() + ".verdict",
                    c.verdict().name());
            if (c.notFullyExercised()) {
                // PASS (partial), or NOT_APPLICABLE (not exercised): what the run did not exercise, and why.
                property(x, "metaroce.clause." + c.clauseId() + ".label", c.label());
                property(x, "metaroce.clause." + c.clauseId() + ".notExercised", c.notExercisedSummary());
            }
        }
        for (final CaseResult c : record.cases()) {
            property(x, "metaroce.case." + c.caseId() + ".clauses", String.join(",", c.clauses()));
            property(x, "metaroce.case." + c.caseId() + ".verdict", c.verdict().name());
        }
        x.append("  </properties>\n");
        final java.util.Map<String, ClauseResult> clauses = new java.util.LinkedHashMap<>();
        record.clauses().forEach(c -> clauses.put(c.clauseId(), c));
        for (final CaseResult c : record.cases()) {
            testcase(x, c, clauses);
        }
        x.append("</testsuite>\n");
        return x.toString();
    }

    private static void testcase(
            final StringBuilder x, final CaseResult c, final java.util.Map<String, ClauseResult> clauses) {
        final String className;
        final String name;
        if (c.caseId().startsWith(VECTOR_PREFIX)) {
            // A vector id holds dots and a slash (10.1.1/dut-path-window-halves-on-ce): never split it.
            className = "vector";
            name = c.caseId().substring(VECTOR_PREFIX.length());
        } else {
            final int dot = c.caseId().lastIndexOf('.');
            className = dot < 0 ? "metaroce" : c.caseId().substring(0, dot);
            name = dot < 0 ? c.caseId() : c.caseId().substring(dot + 1);
        }
        x.append("  <testcase name=\"")
                .append(Markup.attr(name))
                .append("\" classname=\"")
                .append(Markup.attr(className))
                .append("\" group=\"")
                .append(Markup.attr(String.join(",", c.clauses())))
                .append("\" time=\"")
                .append(seconds(c.durationNs()))
                .append("\" timestamp=\"")
                .append(c.startedAt())
                .append("\">\n");
        final String body = body(c);
        switch (c.verdict()) {
            case PASS, WARN -> {}
            case FAIL -> outcome(x, "failure", c, body);
            case ERROR -> outcome(x, "error", c, body);
            case INCONCLUSIVE, NOT_APPLICABLE ->
                x.append("    <skipped message=\"")
                        .append(Markup.attr(c.verdict().name() + ": " + firstLine(c.message())))
                        .append("\">")
                        .append(Markup.text(body))
                        .append("</skipped>\n");
        }
        // The XSD gives a testcase no properties: its verdict and clauses go to system-out, which CI tools show
        // per test, and the clause ids to its group attribute.
        final StringBuilder out = new StringBuilder()
                .append("metaroce.verdict: ")
                .append(c.verdict().name())
                .append("\nmetaroce.clauses: ");
        for (int i = 0; i < c.clauses().size(); i++) {
            final ClauseResult clause = clauses.get(c.clauses().get(i));
            out.append(i == 0 ? "" : ", ").append(c.clauses().get(i));
            if (clause != null) {
                out.append(" (")
                        .append(clause.level())
                        .append(' ')
                        .append(clause.profile())
                        .append(", clause ")
                        .append(clause.label())
                        .append(')');
            }
        }
        if (c.verdict() == Verdict.WARN) {
            out.append("\nWARN (a SHOULD clause not met; not a failure): ").append(body);
        }
        x.append("    <system-out>").append(Markup.text(out.toString())).append("</system-out>\n  </testcase>\n");
    }

    private static void outcome(final StringBuilder x, final String element, final CaseResult c, final String body) {
        x.append("    <")
                .append(element)
                .append(" message=\"")
                .append(Markup.attr(firstLine(c.message())))
                .append("\" type=\"metaroce.")
                .append(c.verdict().name())
                .append("\">")
                .append(Markup.text(body))
                .append("</")
                .append(element)
                .append(">\n");
    }

    /** The whole message, then the clauses, expected and actual values and the decoded packets. */
    private static String body(final CaseResult c) {
        final StringBuilder b = new StringBuilder(PacketFields.respell(c.message()));
        b.append("\nclauses: ").append(String.join(", ", c.clauses()));
        final Evidence e = c.evidence();
        if (!e.expected().isEmpty() || !e.actual().isEmpty()) {
            b.append("\nexpected: ").append(e.expected()).append("\nactual: ").append(e.actual());
        }
        for (final Evidence.PacketRecord p : e.packets()) {
            final String decoded = PacketFields.oneLine(p);
            b.append(String.format(Locale.ROOT, "%n%+.6f ms %s %s", p.timeNs() / 1e6, p.direction(), decoded));
        }
        e.pcapFile().ifPresent(f -> b.append("\npcap: ").append(f));
        return b.toString();
    }

    private static void property(final StringBuilder x, final String name, final String value) {
        x.append("    <property name=\"")
                .append(Markup.attr(name))
                .append("\" value=\"")
                .append(Markup.attr(value))
                .append("\"/>\n");
    }

    private static String suiteName(final RunRecord record, final RunStatus status) {
        final String name = "metaroce conformance: " + record.dut().name();
        return status == RunStatus.COMPLETE ? name : name + " [" + status.label() + "]";
    }

    private static long suiteNanos(final RunRecord record) {
        if (record.finishedAt().isPresent()) {
            return Math.max(
                    0,
                    Duration.between(record.startedAt(), record.finishedAt().get())
                            .toNanos());
        }
        return record.cases().stream().mapToLong(CaseResult::durationNs).sum();
    }

    private static String seconds(final long nanos) {
        return String.format(Locale.ROOT, "%.3f", Math.max(0, nanos) / 1e9);
    }

    private static String firstLine(final String s) {
        return s.lines().findFirst().orElse("");
    }
}
