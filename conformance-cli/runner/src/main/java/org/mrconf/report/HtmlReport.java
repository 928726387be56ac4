package org.mrconf.report;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.Evidence;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;

/**
 * Turns a {@link RunRecord} into {@code report.html}: one self-contained page a reviewer reads offline (inline CSS
 * and script, a Content-Security-Policy that forbids fetching anything). The first screen states the verdict and
 * its reason: conformant for the claimed profiles or not, the failed clauses (MUST first), the clauses not decided
 * and what the run did not exercise. Then each failing case or vector once, with the clauses it touches, its message,
 * expected and actual where the message does not state them, its packets decoded under the Wireshark dissector's
 * field names ({@link PacketFields}) and drawn as a ladder diagram, and its pcap slice; then the undecided cases and
 * the warnings the same way. Below: the device and run facts (what is true of the link used: an in-memory run has no
 * addresses), a summary by section and profile (NOT_APPLICABLE is never counted as verified), the per-clause table
 * with filters (verdict, profile, level, text) and the cases table with filters (verdict, text). Every string from
 * the record is escaped: device identity and messages are hostile input.
 */
public final class HtmlReport {
    /** The verdicts in the order the page lists them, worst first. */
    private static final List<Verdict> ORDER = List.of(
            Verdict.FAIL, Verdict.ERROR, Verdict.INCONCLUSIVE, Verdict.WARN, Verdict.PASS, Verdict.NOT_APPLICABLE);

    /** How many clauses a headline line names before it only counts them. */
    private static final int HEADLINE_CLAUSES = 12;

    /** The id prefix of a test vector's result. */
    private static final String VECTOR_PREFIX = "vector:";

    /** The parameters the link line shows (and an in-memory link does not have). */
    private static final Set<String> LINK_PARAMETERS = Set.of("dut", "tester");

    /** How many bytes of each packet the page shows. */
    private static final int HEX_PREVIEW_BYTES = 64;

    private HtmlReport() {}

    /** The page, ending in a newline. */
    public static String toHtml(final RunRecord record) {
        final StringBuilder h = new StringBuilder(16_384);
        final RunStatus status = RunStatus.of(record);
        final RunRecord.DutDescription dut = record.dut();
        final Map<String, ClauseResult> clauses = new LinkedHashMap<>();
        record.clauses().forEach(c -> clauses.put(c.clauseId(), c));
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        h.append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                + "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n");
        h.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
        h.append("<title>MetaRoCE conformance report: ")
                .append(Markup.text(dut.vendor() + " " + dut.model()))
                .append("</title>\n<style>\n")
                .append(CSS)
                .append("</style>\n</head>\n<body>\n");
        h.append("<header>\n<h1>MetaRoCE conformance report</h1>\n");
        h.append("<p class=\"disclaimer\">MetaRoCE Open Conformance Suite: an open, independent suite for the "
                + "MetaRoCE Open Draft. Not Meta's specification or test suite, and not endorsed by Meta.</p>\n");
        if (status != RunStatus.COMPLETE) {
            h.append("<p class=\"banner ")
                    .append(status.label())
                    .append("\" id=\"status\">")
                    .append(
                            status == RunStatus.INTERRUPTED
                                    ? "This run was interrupted: the cases that did not run have no verdict."
                                    : "This run has not finished (or its process died): verdicts may be missing.")
                    .append("</p>\n");
        }
        headline(h, record, status);
        h.append("</header>\n<main>\n");
        caseSection(
                h,
                "failures",
                "Failures",
                "Each failing case or vector once, with every clause it touches.",
                record,
                clauses,
                EnumSet.of(Verdict.FAIL));
        caseSection(
                h,
                "undecided",
                "Not decided",
                "Inconclusive: the tester could not decide, and says what would make it decide. Error: the harness"
                        + " failed, never the device's fault.",
                record,
                clauses,
                EnumSet.of(Verdict.ERROR, Verdict.INCONCLUSIVE));
        caseSection(
                h,
                "warnings",
                "Warnings",
                "SHOULD clauses the device did not meet; they do not fail the run.",
                record,
                clauses,
                EnumSet.of(Verdict.WARN));
        facts(h, record, status);
        summary(h, record);
        clauseTable(h, record);
        caseTable(h, record);
        h.append("</main>\n<script>\n").append(SCRIPT).append("</script>\n</body>\n</html>\n");
        return h.toString();
    }

    /**
     * The verdict a reviewer reads first: conformant for the claimed profiles or not, and why: the failed clauses
     * (MUST first), the clauses not decided, what this run did not exercise, and whether it covered everything.
     */
    private static void headline(final StringBuilder h, final RunRecord record, final RunStatus status) {
        final RunRecord.DutDescription dut = record.dut();
        final List<ClauseResult> failed = with(record.clauses(), Verdict.FAIL);
        final List<ClauseResult> failedMust =
                failed.stream().filter(c -> "MUST".equals(c.level())).toList();
        final List<ClauseResult> failedOther =
                failed.stream().filter(c -> !"MUST".equals(c.level())).toList();
        final List<ClauseResult> undecided = new ArrayList<>(with(record.clauses(), Verdict.ERROR));
        undecided.addAll(with(record.clauses(), Verdict.INCONCLUSIVE));
        final List<ClauseResult> notExercised = record.clauses().stream()
                .filter(ClauseResult::notFullyExercised)
                .toList();
        final String profiles = dut.profiles().isEmpty() ? "(none claimed)" : String.join(", ", dut.profiles());
        final Verdict tone;
        final String verdict;
        if (!failed.isEmpty()) {
            tone = Verdict.FAIL;
            verdict = "NOT CONFORMANT";
        } else if (!undecided.isEmpty() || status != RunStatus.COMPLETE) {
            tone = Verdict.INCONCLUSIVE;
            verdict = "NOT DECIDED";
        } else if (record.clauses().stream().noneMatch(c -> exercised(c.verdict()))) {
            tone = Verdict.NOT_APPLICABLE;
            verdict = "NOTHING VERIFIED";
        } else {
            tone = Verdict.PASS;
            verdict = "CONFORMANT";
        }
        h.append("<section id=\"verdict\" class=\"headline v-")
                .append(tone.name())
                .append("\">\n<p class=\"verdict\"><span class=\"word\">")
                .append(verdict)
                .append("</span> for the claimed profiles ")
                .append(Markup.text(profiles))
                .append(record.selection().isEmpty() ? "" : ", on the selected cases only")
                .append("</p>\n<ul class=\"reasons\">\n");
        if (!failedMust.isEmpty()) {
            reason(
                    h,
                    failedMust.size() + " MUST " + plural(failedMust.size(), "clause", "clauses") + " failed",
                    failedMust);
        }
        if (!failedOther.isEmpty()) {
            reason(
                    h,
                    failedOther.size() + " declared SHOULD/MAY " + plural(failedOther.size(), "clause", "clauses")
                            + " failed",
                    failedOther);
        }
        if (!undecided.isEmpty()) {
            reason(
                    h,
                    undecided.size() + " " + plural(undecided.size(), "clause", "clauses")
                            + " not decided (inconclusive or a harness error)",
                    undecided);
        }
        if (status != RunStatus.COMPLETE) {
            h.append("<li>The run is ")
                    .append(status.label())
                    .append(": cases that did not run have no verdict.</li>\n");
        }
        if (tone == Verdict.PASS) {
            final long passed = record.clauses().stream()
                    .filter(c -> exercised(c.verdict()))
                    .count();
            final long warned = with(record.clauses(), Verdict.WARN).size();
            h.append("<li>Every one of the ")
                    .append(passed)
                    .append(" applicable ")
                    .append(plural((int) passed, "clause", "clauses"))
                    .append(" passed")
                    .append(
                            warned == 0
                                    ? ""
                                    : " or warned (" + warned + " SHOULD " + plural((int) warned, "clause", "clauses")
                                            + " not met, which does not fail the run)")
                    .append(".</li>\n");
        }
        if (!notExercised.isEmpty()) {
            reason(
                    h,
                    "Not exercised in this run (" + notExercised.size() + " "
                            + plural(notExercised.size(), "clause", "clauses")
                            + ", passed in part or not at all; the clause table says what would exercise them)",
                    notExercised);
        }
        if (!record.selection().isEmpty()) {
            final StringBuilder sel = new StringBuilder();
            new TreeMap<>(record.selection())
                    .forEach((k, v) -> sel.append(sel.length() == 0 ? "" : ", ")
                            .append(k)
                            .append('=')
                            .append(v));
            h.append("<li>Only the selected cases ran (")
                    .append(Markup.text(sel.toString()))
                    .append("): the verdict covers them only.</li>\n");
        }
        if (!dut.defects().isEmpty()) {
            h.append("<li>Self-test: the device ran with deliberate defects (")
                    .append(Markup.text(String.join(", ", dut.defects())))
                    .append(").</li>\n");
        }
        h.append("</ul>\n<p class=\"device\">")
                .append(Markup.text(dut.vendor() + " " + dut.model() + " (" + dut.name() + ")"))
                .append(" \u00b7 link: ")
                .append(Markup.text(linkText(dut)))
                .append(" \u00b7 ")
                .append(record.finishedAt()
                        .map(f -> Markup.text("finished " + f))
                        .orElse("not finished"))
                .append("</p>\n</section>\n");
    }

    private static void reason(final StringBuilder h, final String what, final List<ClauseResult> clauses) {
        h.append("<li>").append(Markup.text(what)).append(": ");
        final int shown = Math.min(clauses.size(), HEADLINE_CLAUSES);
        for (int i = 0; i < shown; i++) {
            final ClauseResult c = clauses.get(i);
            h.append(i == 0 ? "" : ", ")
                    .append(clauseLink(c.clauseId()))
                    .append(
                            c.notFullyExercised()
                                    ? " <span class=\"partial\">(" + (c.partial() ? "partial" : "not exercised")
                                            + ")</span>"
                                    : "");
        }
        if (clauses.size() > shown) {
            h.append(" and ").append(clauses.size() - shown).append(" more (see the clause table)");
        }
        h.append("</li>\n");
    }

    /** What the run's link really was: an in-memory run has no addresses, a network run names both ends. */
    static String linkText(final RunRecord.DutDescription dut) {
        final String tester = dut.parameters().get("tester");
        final String device = dut.parameters().get("dut");
        return switch (dut.link()) {
            case "embedded" -> "embedded (in-memory link to the embedded reference; no network, no addresses)";
            case "udp", "raw-ethernet" ->
                dut.link()
                        + (tester == null || device == null ? "" : ", tester " + tester + " \u2192 device " + device);
            default -> dut.link();
        };
    }

    /** The device and run facts, below the failures: everything a reviewer may need to reproduce the run. */
    private static void facts(final StringBuilder h, final RunRecord record, final RunStatus status) {
        final RunRecord.DutDescription dut = record.dut();
        h.append("<section id=\"run\">\n<h2>Device and run</h2>\n<dl class=\"facts\">\n");
        fact(h, "Device", dut.vendor() + " " + dut.model() + " (" + dut.name() + ")");
        fact(h, "Firmware / driver", dut.firmware() + " / " + dut.driver());
        fact(h, "Link", linkText(dut));
        fact(h, "Claimed profiles", String.join(", ", dut.profiles()));
        fact(
                h,
                "Declared optional clauses",
                dut.optionalClauses().isEmpty() ? "none" : String.join(", ", dut.optionalClauses()));
        if (!dut.defects().isEmpty()) {
            fact(h, "Planted defects (self-test)", String.join(", ", dut.defects()));
        }
        final StringBuilder params = new StringBuilder();
        new TreeMap<>(dut.parameters()).forEach((k, v) -> {
            // The addresses are part of the link line; an in-memory link has none, whatever the profile says.
            if (!LINK_PARAMETERS.contains(k)) {
                params.append(params.length() == 0 ? "" : ", ")
                        .append(k)
                        .append('=')
                        .append(v);
            }
        });
        fact(h, "Test parameters", params.length() == 0 ? "none declared" : params.toString());
        fact(h, "Spec", "MetaRoCE Open Draft " + record.specVersion());
        fact(h, "Suite", record.suiteVersion() + " (commit " + record.suiteCommit() + ")");
        fact(h, "Command", record.commandLine());
        fact(h, "Started", record.startedAt().toString());
        fact(h, "Finished", record.finishedAt().map(Object::toString).orElse("not finished"));
        fact(h, "Status", status.label());
        h.append("</dl>\n</section>\n");
    }

    /** The cases (and vectors) with one of the verdicts, worst first, each once with its evidence. */
    private static void caseSection(
            final StringBuilder h,
            final String id,
            final String title,
            final String caption,
            final RunRecord record,
            final Map<String, ClauseResult> clauses,
            final Set<Verdict> verdicts) {
        final List<CaseResult> shown = new ArrayList<>();
        for (final Verdict v : ORDER) {
            if (verdicts.contains(v)) {
                record.cases().stream().filter(c -> c.verdict() == v).forEach(shown::add);
            }
        }
        if (shown.isEmpty()) {
            return;
        }
        h.append("<section id=\"")
                .append(id)
                .append("\">\n<h2>")
                .append(title)
                .append(" (")
                .append(shown.size())
                .append(")</h2>\n<p class=\"caption\">")
                .append(caption)
                .append("</p>\n");
        for (final CaseResult r : shown) {
            evidence(h, r, clauses);
        }
        h.append("</section>\n");
    }

    private static List<ClauseResult> with(final List<ClauseResult> clauses, final Verdict verdict) {
        return clauses.stream().filter(c -> c.verdict() == verdict).toList();
    }

    /** Whether the verdict says the clause was decided on the device: PASS, WARN or FAIL. */
    private static boolean exercised(final Verdict v) {
        return v == Verdict.PASS || v == Verdict.WARN || v == Verdict.FAIL;
    }

    private static String plural(final int n, final String one, final String many) {
        return n == 1 ? one : many;
    }

    private static String clauseLink(final String clauseId) {
        return "<a href=\"#clause-" + Markup.attr(clauseId) + "\">" + Markup.text(clauseId) + "</a>";
    }

    /** The id of a case's evidence on the page: letters, digits, dot, dash and underscore. */
    static String caseAnchor(final String caseId) {
        return "case-" + caseId.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    private static void summary(final StringBuilder h, final RunRecord record) {
        h.append("<section id=\"summary\">\n<h2>Summary</h2>\n"
                + "<p class=\"caption\">Clauses by verdict, with the cases that got each verdict "
                + "(click a verdict to filter the clause table).</p>\n<div class=\"tiles\">\n");
        final VerdictCounts clauses = VerdictCounts.of(record.clauses(), ClauseResult::verdict);
        final VerdictCounts cases = VerdictCounts.of(record.cases(), CaseResult::verdict);
        for (final Verdict v : ORDER) {
            h.append("<button type=\"button\" class=\"tile v-")
                    .append(v.name())
                    .append("\" data-verdict=\"")
                    .append(v.name())
                    .append("\"><span class=\"n\">")
                    .append(clauses.get(v))
                    .append("</span><span class=\"k\">")
                    .append(label(v))
                    .append("</span><span class=\"c\">")
                    .append(cases.get(v))
                    .append(cases.get(v) == 1 ? " case" : " cases")
                    .append("</span></button>\n");
        }
        final long decided =
                record.clauses().stream().filter(c -> exercised(c.verdict())).count();
        final int notApplicable = clauses.get(Verdict.NOT_APPLICABLE);
        h.append("</div>\n<p class=\"totals\">")
                .append(decided)
                .append(plural((int) decided, " clause", " clauses"))
                .append(" decided on the device (pass, warn or fail), ")
                .append(clauses.get(Verdict.INCONCLUSIVE) + clauses.get(Verdict.ERROR))
                .append(" not decided, ")
                .append(notApplicable)
                .append(" not applicable (never counted as verified); ")
                .append(cases.total())
                .append(plural(cases.total(), " case and vector", " cases and vectors"))
                .append(" ran. A clause takes the worst verdict of its cases.</p>\n");
        final long partial =
                record.clauses().stream().filter(ClauseResult::partial).count();
        final long unexercised =
                record.clauses().stream().filter(ClauseResult::unexercised).count();
        if (partial + unexercised > 0) {
            h.append("<p class=\"totals partial\">")
                    .append(partial)
                    .append(partial == 1 ? " clause" : " clauses")
                    .append(" PASS (partial) or WARN (partial): a test purpose of it was not exercised in this run; ")
                    .append(unexercised)
                    .append(unexercised == 1 ? " clause" : " clauses")
                    .append(" NOT APPLICABLE (not exercised): it applies to the device but none of its cases could"
                            + " run. The clause table names each purpose and what would exercise it.</p>\n");
        }
        breakdown(h, "By section", "Section", record.clauses(), c -> "\u00a7" + section(c.clauseId()));
        breakdown(h, "By profile", "Profile", record.clauses(), ClauseResult::profile);
        h.append("</section>\n");
    }

    private static void breakdown(
            final StringBuilder h,
            final String title,
            final String column,
            final List<ClauseResult> clauses,
            final java.util.function.Function<ClauseResult, String> key) {
        final Map<String, List<ClauseResult>> groups = new LinkedHashMap<>();
        final List<ClauseResult> sorted = new ArrayList<>(clauses);
        if ("Profile".equals(column)) {
            sorted.sort(java.util.Comparator.comparing(ClauseResult::profile));
        }
        for (final ClauseResult c : sorted) {
            groups.computeIfAbsent(key.apply(c), k -> new ArrayList<>()).add(c);
        }
        h.append("<h3>")
                .append(title)
                .append("</h3>\n<table class=\"breakdown\">\n<thead><tr><th>")
                .append(column)
                .append("</th>");
        for (final Verdict v : ORDER) {
            h.append("<th>").append(label(v)).append("</th>");
        }
        h.append("<th>Total</th></tr></thead>\n<tbody>\n");
        groups.forEach((name, group) -> {
            final VerdictCounts counts = VerdictCounts.of(group, ClauseResult::verdict);
            h.append("<tr><th>").append(Markup.text(name)).append("</th>");
            for (final Verdict v : ORDER) {
                final int n = counts.get(v);
                h.append(n == 0 ? "<td class=\"zero\">0</td>" : "<td class=\"v-" + v.name() + "\">" + n + "</td>");
            }
            h.append("<td>").append(counts.total()).append("</td></tr>\n");
        });
        h.append("</tbody>\n</table>\n");
    }

    private static void clauseTable(final StringBuilder h, final RunRecord record) {
        final Map<String, CaseResult> cases = new LinkedHashMap<>();
        record.cases().forEach(c -> cases.put(c.caseId(), c));
        h.append("<section id=\"clauses\">\n<h2>Clauses</h2>\n<form class=\"filters\" onsubmit=\"return false\">\n");
        h.append("<label>Verdict <select id=\"f-verdict\"><option value=\"\">all</option>");
        for (final Verdict v : ORDER) {
            h.append("<option value=\"")
                    .append(v.name())
                    .append("\">")
                    .append(label(v))
                    .append("</option>");
        }
        h.append("</select></label>\n");
        options(
                h,
                "f-profile",
                "Profile",
                record.clauses().stream().map(ClauseResult::profile).toList());
        options(
                h,
                "f-level",
                "Level",
                record.clauses().stream().map(ClauseResult::level).toList());
        h.append(
                "<label>Text <input id=\"f-text\" type=\"search\" placeholder=\"clause, title, case, reason\"></label>\n");
        h.append("<output id=\"f-count\"></output>\n</form>\n");
        h.append("<table id=\"clause-table\">\n<thead><tr><th>Clause</th><th>Title</th><th>Level</th><th>Profile</th>"
                + "<th>Verdict</th><th>Cases</th></tr></thead>\n<tbody>\n");
        for (final ClauseResult c : record.clauses()) {
            final String search = (c.clauseId() + " " + c.title() + " " + String.join(" ", c.caseIds()) + " "
                            + PacketFields.respell(c.reason()) + (c.partial() ? " partial" : "")
                            + (c.unexercised() ? " not exercised" : ""))
                    .toLowerCase(Locale.ROOT);
            h.append("<tr class=\"clause\" id=\"clause-")
                    .append(Markup.attr(c.clauseId()))
                    .append("\" data-verdict=\"")
                    .append(c.verdict().name())
                    .append("\" data-profile=\"")
                    .append(Markup.attr(c.profile()))
                    .append("\" data-level=\"")
                    .append(Markup.attr(c.level()))
                    .append("\" data-text=\"")
                    .append(Markup.attr(search))
                    .append("\"><td>")
                    .append(Markup.text(c.clauseId()))
                    .append("</td><td>")
                    .append(Markup.text(c.title()))
                    .append("</td><td>")
                    .append(Markup.text(c.level()))
                    .append("</td><td>")
                    .append(Markup.text(c.profile()))
                    .append("</td><td>")
                    .append(badge(c.verdict()))
                    .append(
                            c.partial()
                                    ? " <span class=\"partial\">(partial)</span>"
                                    : c.unexercised() ? " <span class=\"partial\">(not exercised)</span>" : "")
                    .append("</td><td>")
                    .append(c.caseIds().size())
                    .append("</td></tr>\n");
            if (c.verdict() != Verdict.PASS || c.notFullyExercised()) {
                final String head = c.partial()
                        ? "partly exercised: " + c.notExercised().size() + " test purpose(s) not exercised"
                        : firstLine(c.reason()).isEmpty() ? "evidence" : PacketFields.respell(firstLine(c.reason()));
                h.append("<tr class=\"detail\"><td colspan=\"6\"><details")
                        .append(c.verdict() == Verdict.FAIL || c.verdict() == Verdict.ERROR ? " open" : "")
                        .append("><summary>")
                        .append(Markup.text(head))
                        .append("</summary>\n");
                if (c.notFullyExercised()) {
                    h.append("<p class=\"not-exercised\">Not exercised in this run (a run that carries them would"
                            + " exercise them):</p>\n<ul class=\"not-exercised\">\n");
                    for (final ClauseResult.NotExercised m : c.notExercised()) {
                        h.append("<li><code>")
                                .append(Markup.text(m.caseId()))
                                .append("</code> ")
                                .append(badge(m.verdict()))
                                .append(' ')
                                .append(Markup.text(firstLine(m.reason())))
                                .append("</li>\n");
                    }
                    h.append("</ul>\n");
                }
                final List<CaseResult> decidedBy = c.caseIds().stream()
                        .map(cases::get)
                        .filter(r -> r != null && r.verdict() != Verdict.PASS && r.verdict() != Verdict.NOT_APPLICABLE)
                        .toList();
                if (!decidedBy.isEmpty()) {
                    h.append("<ul class=\"by-case\">\n");
                    for (final CaseResult r : decidedBy) {
                        h.append("<li>")
                                .append(badge(r.verdict()))
                                .append(" <a href=\"#")
                                .append(Markup.attr(caseAnchor(r.caseId())))
                                .append("\">")
                                .append(Markup.text(r.caseId()))
                                .append("</a> ")
                                .append(Markup.text(firstLine(PacketFields.respell(r.message()))))
                                .append(" (evidence above)</li>\n");
                    }
                    h.append("</ul>\n");
                }
                h.append("</details></td></tr>\n");
            }
        }
        h.append("</tbody>\n</table>\n</section>\n");
    }

    private static void evidence(final StringBuilder h, final CaseResult r, final Map<String, ClauseResult> clauses) {
        h.append("<article class=\"case v-")
                .append(r.verdict().name())
                .append("\" id=\"")
                .append(Markup.attr(caseAnchor(r.caseId())))
                .append("\"><h3>")
                .append(badge(r.verdict()))
                .append(' ')
                .append(Markup.text(r.caseId()))
                .append("</h3>\n<p class=\"meta\">")
                .append(Markup.text(r.title()))
                .append(" \u00b7 ")
                .append(r.caseId().startsWith(VECTOR_PREFIX) ? "test vector" : "case")
                .append(", ")
                .append(r.kind().name().toLowerCase(Locale.ROOT))
                .append(" behaviour \u00b7 ")
                .append(String.format(Locale.ROOT, "%.3f s", r.durationNs() / 1e9))
                .append("</p>\n<p class=\"touches\">Clauses: ");
        for (int i = 0; i < r.clauses().size(); i++) {
            final String id = r.clauses().get(i);
            final ClauseResult c = clauses.get(id);
            h.append(i == 0 ? "" : ", ").append(clauseLink(id));
            if (c != null) {
                h.append(" <span class=\"level\">")
                        .append(Markup.text(c.level() + " \u00b7 " + c.profile()))
                        .append("</span>");
            }
        }
        h.append("</p>\n");
        final Evidence e = r.evidence();
        if (!r.message().isEmpty()) {
            h.append("<pre class=\"message\">")
                    .append(Markup.text(PacketFields.respell(r.message())))
                    .append("</pre>\n");
        }
        // The message usually states expected and actual already: print them only when it does not.
        if ((!e.expected().isEmpty() || !e.actual().isEmpty())
                && !(r.message().contains(e.expected()) && r.message().contains(e.actual()))) {
            h.append("<dl class=\"values\"><dt>expected</dt><dd><code>")
                    .append(Markup.text(e.expected()))
                    .append("</code></dd><dt>actual</dt><dd><code>")
                    .append(Markup.text(e.actual()))
                    .append("</code></dd></dl>\n");
        }
        if (!e.packets().isEmpty()) {
            final List<Evidence.PacketRecord> labelled = new ArrayList<>();
            final List<Optional<PacketFields.Decoded>> decoded = new ArrayList<>();
            for (final Evidence.PacketRecord p : e.packets()) {
                final Optional<PacketFields.Decoded> d = PacketFields.decodeHex(p.hex());
                decoded.add(d);
                labelled.add(new Evidence.PacketRecord(
                        p.timeNs(),
                        p.direction(),
                        d.map(PacketFields.Decoded::info).orElse(undoubled(p.summary())),
                        p.hex(),
                        p.wire()));
            }
            h.append(LadderDiagram.svg(labelled)).append('\n');
            h.append("<table class=\"packets\"><thead><tr><th>Time</th><th>Direction</th>"
                    + "<th>Decoded (Wireshark dissector field names)</th><th>First bytes</th></tr></thead><tbody>\n");
            for (int i = 0; i < e.packets().size(); i++) {
                final Evidence.PacketRecord p = e.packets().get(i);
                h.append("<tr><td>")
                        .append(String.format(Locale.ROOT, "%.3f ms", p.timeNs() / 1e6))
                        .append("</td><td>")
                        .append(Markup.text(p.direction()))
                        .append("</td><td>");
                decoded.get(i)
                        .ifPresentOrElse(
                                d -> {
                                    fields(h, d);
                                    if ("malformed".equals(d.kind())
                                            && !p.summary().isBlank()) {
                                        h.append(" <span class=\"summary\">(tester: ")
                                                .append(Markup.text(undoubled(p.summary())))
                                                .append(")</span>");
                                    }
                                },
                                () -> h.append(Markup.text(undoubled(p.summary()))));
                h.append("</td><td><code class=\"hex\">")
                        .append(Markup.text(hexPreview(p.hex())))
                        .append("</code></td></tr>\n");
            }
            h.append("</tbody></table>\n");
        }
        e.pcapFile()
                .ifPresent(f -> h.append("<p class=\"pcap\">Capture: <a href=\"./")
                        .append(Markup.attr(f))
                        .append("\">")
                        .append(Markup.text(f))
                        .append("</a> (Ethernet/IPv4/UDP framing added for Wireshark;"
                                + " tools/wireshark/metaroce.lua decodes it)</p>\n"));
        h.append("</article>\n");
    }

    private static void fields(final StringBuilder h, final PacketFields.Decoded d) {
        h.append("<b>").append(Markup.text(d.kind())).append("</b>");
        for (final PacketFields.Field f : d.fields()) {
            h.append(" <code class=\"f\">")
                    .append(Markup.text(f.name()))
                    .append("=")
                    .append(Markup.text(f.value()))
                    .append("</code>");
        }
        for (final String p : d.problems()) {
            h.append(" <span class=\"problem\">").append(Markup.text(p)).append("</span>");
        }
    }

    /** A summary without a word said twice in a row ({@code BAD_CRC BAD_CRC ...} reads {@code BAD_CRC ...}). */
    static String undoubled(final String summary) {
        return summary.replaceAll("\\b([A-Za-z_][A-Za-z0-9_]*)(\\s+\\1\\b)+", "$1");
    }

    private static void caseTable(final StringBuilder h, final RunRecord record) {
        h.append(
                "<section id=\"cases\">\n<h2>Cases and vectors</h2>\n<form class=\"filters\" onsubmit=\"return false\">\n");
        h.append("<label>Verdict <select id=\"c-verdict\"><option value=\"\">all</option>");
        for (final Verdict v : ORDER) {
            h.append("<option value=\"")
                    .append(v.name())
                    .append("\">")
                    .append(label(v))
                    .append("</option>");
        }
        h.append(
                "</select></label>\n<label>Text <input id=\"c-text\" type=\"search\""
                        + " placeholder=\"case, vector, clause, reason\"></label>\n<output id=\"c-count\"></output>\n</form>\n");
        h.append("<table id=\"case-table\">\n<thead><tr><th>Case</th><th>Kind</th><th>Clauses</th>"
                + "<th>Verdict</th><th>Duration</th></tr></thead>\n<tbody>\n");
        for (final CaseResult c : record.cases()) {
            final String search = (c.caseId() + " " + c.title() + " " + String.join(" ", c.clauses()) + " "
                            + PacketFields.respell(firstLine(c.message())))
                    .toLowerCase(Locale.ROOT);
            final boolean evidence = c.verdict() != Verdict.PASS && c.verdict() != Verdict.NOT_APPLICABLE;
            h.append("<tr class=\"case-row\" data-verdict=\"")
                    .append(c.verdict().name())
                    .append("\" data-text=\"")
                    .append(Markup.attr(search))
                    .append("\"><td title=\"")
                    .append(Markup.attr(c.title()))
                    .append("\">")
                    .append(
                            evidence
                                    ? "<a href=\"#" + Markup.attr(caseAnchor(c.caseId())) + "\">"
                                            + Markup.text(c.caseId()) + "</a>"
                                    : Markup.text(c.caseId()))
                    .append("</td><td>")
                    .append(c.kind().name().toLowerCase(Locale.ROOT))
                    .append("</td><td>")
                    .append(Markup.text(String.join(", ", c.clauses())))
                    .append("</td><td>")
                    .append(badge(c.verdict()))
                    .append("</td><td>")
                    .append(String.format(Locale.ROOT, "%.3f s", c.durationNs() / 1e9))
                    .append("</td></tr>\n");
        }
        h.append("</tbody>\n</table>\n</section>\n");
    }

    private static void options(final StringBuilder h, final String id, final String label, final List<String> values) {
        h.append("<label>")
                .append(label)
                .append(" <select id=\"")
                .append(id)
                .append("\"><option value=\"\">all</option>");
        for (final String v : new TreeSet<>(values)) {
            h.append("<option value=\"")
                    .append(Markup.attr(v))
                    .append("\">")
                    .append(Markup.text(v))
                    .append("</option>");
        }
        h.append("</select></label>\n");
    }

    private static void fact(final StringBuilder h, final String name, final String value) {
        h.append("<dt>")
                .append(name)
                .append("</dt><dd>")
                .append(Markup.text(value))
                .append("</dd>\n");
    }

    private static String badge(final Verdict v) {
        return "<span class=\"badge v-" + v.name() + "\">" + label(v) + "</span>";
    }

    private static String label(final Verdict v) {
        return v.name().replace('_', ' ');
    }

    private static String section(final String clauseId) {
        final int dot = clauseId.indexOf('.');
        return dot < 0 ? clauseId : clauseId.substring(0, dot);
    }

    /**
     * The first bytes of a packet: enough to read its headers (the decoded fields beside it name them); full payloads
     * would make a page of many failures megabytes. report.json and the pcap slice hold every byte.
     */
    static String hexPreview(final String hex) {
        if (hex.length() <= HEX_PREVIEW_BYTES * 2) {
            return hex;
        }
        return hex.substring(0, HEX_PREVIEW_BYTES * 2) + "\u2026 (" + hex.length() / 2 + " bytes)";
    }

    private static String firstLine(final String s) {
        return s.lines().findFirst().orElse("");
    }

    private static final String CSS = """
            :root { --fail:#b3261e; --error:#8e44ad; --inconclusive:#b26a00; --warn:#c49000; --pass:#1e7b34; --na:#6b6b6b; }
            * { box-sizing: border-box; }
            body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; color: #1b1b1b; background: #fafafa; }
            header, main { max-width: 1180px; margin: 0 auto; padding: 0 20px; }
            header { padding-top: 12px; }
            h1 { font-size: 24px; margin: 8px 0 4px; }
            h2 { font-size: 19px; margin: 26px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
            h3 { font-size: 15px; margin: 16px 0 6px; }
            h4 { font-size: 14px; margin: 4px 0; font-family: ui-monospace, Menlo, Consolas, monospace; }
            .disclaimer { color: #555; margin: 0 0 8px; }
            .caption { color: #555; margin: 0 0 8px; }
            .banner { padding: 8px 12px; border-radius: 4px; font-weight: 600; color: #fff; }
            .banner.interrupted { background: var(--fail); }
            .banner.running { background: var(--inconclusive); }
            .headline { border-radius: 6px; padding: 10px 16px; margin: 10px 0 4px; color: #fff; }
            .headline.v-FAIL { background: var(--fail); } .headline.v-PASS { background: var(--pass); }
            .headline.v-INCONCLUSIVE { background: var(--inconclusive); } .headline.v-NOT_APPLICABLE { background: var(--na); }
            .headline p.verdict { font-size: 18px; margin: 0 0 4px; }
            .headline .word { font-size: 24px; font-weight: 800; letter-spacing: .02em; margin-right: 6px; }
            .headline ul.reasons { margin: 4px 0; padding-left: 20px; }
            .headline a { color: #fff; font-weight: 700; }
            .headline p.device { margin: 4px 0 0; opacity: .9; font-size: 13px; overflow-wrap: anywhere; }
            article.case { border-left: 4px solid #ddd; background: #fff; margin: 10px 0; padding: 6px 12px; }
            article.case.v-FAIL { border-color: var(--fail); } article.case.v-ERROR { border-color: var(--error); }
            article.case.v-INCONCLUSIVE { border-color: var(--inconclusive); } article.case.v-WARN { border-color: var(--warn); }
            article.case h3 { font-size: 15px; margin: 4px 0; font-family: ui-monospace, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
            .touches .level { color: #555; font-size: 12px; }
            code.f { font-size: 12px; background: #f2f2f2; padding: 0 3px; border-radius: 2px; }
            .problem { color: var(--fail); font-weight: 600; }
            dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 8px 0; }
            dl.facts dt { color: #555; }
            dl.facts dd { margin: 0; overflow-wrap: anywhere; }
            .tiles { display: flex; flex-wrap: wrap; gap: 10px; }
            .tile { border: 0; border-radius: 6px; color: #fff; min-width: 130px; padding: 8px 12px; text-align: left; cursor: pointer; font: inherit; }
            .tile .n { display: block; font-size: 26px; font-weight: 700; }
            .tile .k { display: block; font-weight: 600; }
            .tile .c { display: block; opacity: .85; font-size: 12px; }
            .tile.v-FAIL, .badge.v-FAIL { background: var(--fail); }
            .tile.v-ERROR, .badge.v-ERROR { background: var(--error); }
            .tile.v-INCONCLUSIVE, .badge.v-INCONCLUSIVE { background: var(--inconclusive); }
            .tile.v-WARN, .badge.v-WARN { background: var(--warn); }
            .tile.v-PASS, .badge.v-PASS { background: var(--pass); }
            .tile.v-NOT_APPLICABLE, .badge.v-NOT_APPLICABLE { background: var(--na); }
            td.v-FAIL { color: var(--fail); font-weight: 700; } td.v-ERROR { color: var(--error); font-weight: 700; }
            td.v-INCONCLUSIVE { color: var(--inconclusive); font-weight: 700; } td.v-WARN { color: var(--warn); font-weight: 700; }
            td.v-PASS { color: var(--pass); font-weight: 700; } td.v-NOT_APPLICABLE { color: var(--na); font-weight: 700; }
            td.zero { color: #bbb; }
            .partial { font-size: 12px; font-style: italic; white-space: nowrap; }
            .badge { color: #fff; border-radius: 3px; padding: 1px 6px; font-size: 12px; font-weight: 600; white-space: nowrap; }
            table { border-collapse: collapse; width: 100%; background: #fff; }
            th, td { border: 1px solid #e2e2e2; padding: 4px 8px; text-align: left; vertical-align: top; }
            thead th { background: #f0f0f0; }
            table.breakdown { width: auto; }
            table.breakdown td { text-align: right; min-width: 64px; }
            .filters { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; margin: 6px 0 10px; }
            .filters input { min-width: 240px; }
            tr.detail > td { background: #fcfcfc; }
            details > summary { cursor: pointer; color: #333; overflow-wrap: anywhere; }
            .case { border-left: 3px solid #ddd; margin: 10px 0 10px 6px; padding-left: 10px; }
            .meta { color: #555; margin: 2px 0 6px; }
            pre.message { background: #f4f4f4; padding: 8px; white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; }
            dl.values { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; }
            dl.values dd { margin: 0; overflow-wrap: anywhere; }
            code.hex { overflow-wrap: anywhere; word-break: break-all; font-size: 12px; }
            table.packets td:nth-child(3) { overflow-wrap: anywhere; }
            table.packets { margin: 6px 0; }
            svg.ladder { display: block; margin: 8px 0; background: #fff; border: 1px solid #e2e2e2; max-width: 100%; height: auto; }
            svg.ladder .life { stroke: #444; stroke-width: 2; }
            svg.ladder .arrow { stroke-width: 1.5; }
            svg.ladder .out { stroke: #1f5fa8; fill: #1f5fa8; }
            svg.ladder .in { stroke: #a8431f; fill: #a8431f; }
            svg.ladder text { font: 12px ui-monospace, Menlo, Consolas, monospace; fill: #222; stroke: none; }
            svg.ladder text.end { font-weight: 700; font-family: system-ui, sans-serif; }
            svg.ladder text.t { fill: #666; }
            """;

    private static final String SCRIPT = """
            (function () {
              'use strict';
              var rows = Array.prototype.slice.call(document.querySelectorAll('#clause-table tr.clause'));
              var verdict = document.getElementById('f-verdict');
              var profile = document.getElementById('f-profile');
              var level = document.getElementById('f-level');
              var text = document.getElementById('f-text');
              var count = document.getElementById('f-count');
              function apply() {
                var t = text.value.trim().toLowerCase();
                var shown = 0;
                rows.forEach(function (row) {
                  var ok = (!verdict.value || row.dataset.verdict === verdict.value)
                      && (!profile.value || row.dataset.profile === profile.value)
                      && (!level.value || row.dataset.level === level.value)
                      && (!t || row.dataset.text.indexOf(t) >= 0);
                  row.hidden = !ok;
                  var next = row.nextElementSibling;
                  if (next && next.classList.contains('detail')) { next.hidden = !ok; }
                  if (ok) { shown++; }
                });
                count.textContent = shown + ' of ' + rows.length + ' clauses shown';
              }
              [verdict, profile, level, text].forEach(function (c) {
                c.addEventListener('input', apply);
                c.addEventListener('change', apply);
              });
              Array.prototype.forEach.call(document.querySelectorAll('.tile'), function (tile) {
                tile.addEventListener('click', function () {
                  verdict.value = verdict.value === tile.dataset.verdict ? '' : tile.dataset.verdict;
                  apply();
                  document.getElementById('clauses').scrollIntoView();
                });
              });
              // A link can carry a filter, e.g. report.html#verdict=FAIL&profile=core&level=MUST&text=6.4&caseVerdict=FAIL&case=ack
              var wanted = {};
              location.hash.replace(/^#/, '').split('&').forEach(function (pair) {
                var i = pair.indexOf('=');
                if (i <= 0) { return; }
                try {
                  wanted[decodeURIComponent(pair.slice(0, i))] = decodeURIComponent(pair.slice(i + 1));
                } catch (e) { /* a malformed link: ignore that pair */ }
              });
              if (wanted.verdict) { verdict.value = wanted.verdict; }
              if (wanted.profile) { profile.value = wanted.profile; }
              if (wanted.level) { level.value = wanted.level; }
              if (wanted.text) { text.value = wanted.text; }
              apply();

              // The cases table: a verdict and a text filter.
              var caseRows = Array.prototype.slice.call(document.querySelectorAll('#case-table tr.case-row'));
              var caseVerdict = document.getElementById('c-verdict');
              var caseText = document.getElementById('c-text');
              var caseCount = document.getElementById('c-count');
              function applyCases() {
                var t = caseText.value.trim().toLowerCase();
                var shown = 0;
                caseRows.forEach(function (row) {
                  var ok = (!caseVerdict.value || row.dataset.verdict === caseVerdict.value)
                      && (!t || row.dataset.text.indexOf(t) >= 0);
                  row.hidden = !ok;
                  if (ok) { shown++; }
                });
                caseCount.textContent = shown + ' of ' + caseRows.length + ' cases and vectors shown';
              }
              [caseVerdict, caseText].forEach(function (c) {
                c.addEventListener('input', applyCases);
                c.addEventListener('change', applyCases);
              });
              if (wanted.case) { caseText.value = wanted.case; }
              if (wanted.caseVerdict) { caseVerdict.value = wanted.caseVerdict; }
              applyCases();
            })();
            """;
}
