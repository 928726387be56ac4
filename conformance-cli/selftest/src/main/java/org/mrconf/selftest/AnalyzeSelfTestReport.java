package org.mrconf.selftest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.mrconf.embedded.DefectCapture;

/**
 * The outcome of {@link AnalyzeSelfTest}: the clean capture and one outcome per in-scope defect, with the section it
 * adds to the self-validation report.
 *
 * @param clean      the capture of the clean reference
 * @param outcomes   one per defect that breaks a clause the analyser judges, in catalogue order
 * @param durationNs wall-clock time of all of it
 */
public record AnalyzeSelfTestReport(AnalyzeOutcome clean, List<AnalyzeOutcome> outcomes, long durationNs) {
    public AnalyzeSelfTestReport {
        outcomes = List.copyOf(outcomes);
    }

    /** Whether the clean capture passes, every visible defect is caught, and no conformant end is blamed. */
    public boolean passed() {
        return clean.proven() && outcomes.stream().allMatch(AnalyzeOutcome::proven);
    }

    /** The visible defects the analyser did not catch. */
    public List<AnalyzeOutcome> escapes() {
        return outcomes.stream()
                .filter(o -> o.notVisible() == null && !o.caught())
                .toList();
    }

    /** The report's section, in Markdown. */
    public String markdown() {
        final StringBuilder md = new StringBuilder();
        md.append("\n## Passive analysis (`metaroce analyze`)\n\n");
        md.append("Each defect that breaks a clause `analyze` judges runs in one of two reference endpoints on the ")
                .append("simulated fabric (seed ")
                .append(AnalyzeSelfTest.SEED)
                .append("; the other end is clean), a tap beside each sender captures the exchange, and `analyze` ")
                .append("judges the capture with the reference's declarations. A defect is **caught** when every ")
                .append("judged clause it declares FAILs for the defective end (")
                .append(DefectCapture.DEFECTIVE)
                .append("); the conformant end (")
                .append(DefectCapture.CLEAN)
                .append(") must never FAIL. Defects a capture cannot show are listed with why; they still run, and ")
                .append("one that is caught after all fails self-validation.\n\n");
        final long visible =
                outcomes.stream().filter(o -> o.notVisible() == null).count();
        final long caught = outcomes.stream()
                .filter(o -> o.notVisible() == null && o.caught())
                .count();
        md.append(String.format(
                "- Clean capture: %d frames, %s%n",
                clean.frames(),
                clean.proven()
                        ? "no FAIL at either end"
                        : "**FAILS** " + String.join(" ", clean.failing()) + " / "
                                + String.join(" ", clean.failingClean())));
        md.append(String.format(
                "- Defects: %d in scope, %d visible in a capture, %d of them caught; %d not visible%s%n",
                outcomes.size(),
                visible,
                caught,
                outcomes.size() - visible,
                passed() ? "" : " **ANALYZE SELF-VALIDATION FAILS**"));
        md.append(String.format("- Time: %.1f s%n%n", durationNs / 1e9));
        md.append(
                "| Defect | Judged clauses | FAIL (defective end) | FAIL (conformant end) | Result | Frames | Time |\n");
        md.append("| --- | --- | --- | --- | --- | ---: | ---: |\n");
        for (final AnalyzeOutcome outcome : outcomes) {
            md.append("| `")
                    .append(outcome.name())
                    .append("` | ")
                    .append(String.join(" ", outcome.judged()))
                    .append(" | ")
                    .append(outcome.failing().isEmpty() ? "-" : String.join(" ", outcome.failing()))
                    .append(" | ")
                    .append(
                            outcome.failingClean().isEmpty()
                                    ? "-"
                                    : "**" + String.join(" ", outcome.failingClean()) + "**")
                    .append(" | ")
                    .append(result(outcome))
                    .append(String.format(" | %d | %.1f s |%n", outcome.frames(), outcome.durationNs() / 1e9));
        }
        final List<AnalyzeOutcome> problems = new java.util.ArrayList<>();
        if (!clean.proven()) {
            problems.add(clean);
        }
        outcomes.stream().filter(o -> !o.proven()).forEach(problems::add);
        if (!problems.isEmpty()) {
            md.append("\nProblems of the passive analysis:\n\n");
            for (final AnalyzeOutcome outcome : problems) {
                md.append("- `").append(outcome.name()).append("`: ");
                if (!outcome.failingClean().isEmpty()) {
                    md.append("the conformant end FAILs ").append(String.join(" ", outcome.failingClean()));
                } else if (outcome.defect() == null) {
                    md.append("the clean capture FAILs ").append(String.join(" ", outcome.failing()));
                } else if (outcome.notVisible() != null) {
                    md.append("caught, so it is wrongly listed as not visible");
                } else {
                    md.append("escapes analyze on ").append(String.join(" ", outcome.missed()));
                }
                md.append('\n');
            }
        }
        return md.toString();
    }

    /** The section in the self-validation JSON. */
    public void json(final ObjectNode root) {
        final ObjectNode node = root.putObject("analyze");
        node.put("passed", passed());
        node.put("seed", AnalyzeSelfTest.SEED);
        node.put("durationSeconds", Math.round(durationNs / 1e8) / 10.0);
        node.put("cleanFrames", clean.frames());
        clean.failing().forEach(node.putArray("cleanFailing")::add);
        final ArrayNode defects = node.putArray("defects");
        for (final AnalyzeOutcome outcome : outcomes) {
            final ObjectNode entry = defects.addObject();
            entry.put("name", outcome.name());
            outcome.judged().forEach(entry.putArray("judged")::add);
            outcome.failing().forEach(entry.putArray("failing")::add);
            outcome.failingClean().forEach(entry.putArray("failingConformantEnd")::add);
            entry.put("caught", outcome.caught());
            entry.put("proven", outcome.proven());
            if (outcome.notVisible() != null) {
                entry.put("notVisible", outcome.notVisible());
            }
            entry.put("frames", outcome.frames());
        }
    }

    private static String result(final AnalyzeOutcome outcome) {
        if (!outcome.failingClean().isEmpty()) {
            return "**BLAMES THE CONFORMANT END**";
        }
        if (outcome.notVisible() != null) {
            return outcome.caught()
                    ? "**caught, but listed as not visible**"
                    : "not visible: " + outcome.notVisible().replace("|", "\\|");
        }
        return outcome.caught() ? "caught" : "**NOT CAUGHT**";
    }
}
