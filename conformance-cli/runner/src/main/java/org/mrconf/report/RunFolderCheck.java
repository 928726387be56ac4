package org.mrconf.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.mrconf.files.UserFileException;
import org.mrconf.files.UserFiles;
import org.mrconf.pcap.PcapReader;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;

/**
 * Checks the four report files of a run folder: report.json against the report schema (and its summary against
 * its own lists, and every pcap slice it names), ocptv.jsonl line by line against the OCPTV 2.0 schema (and the
 * spec's rules the schema cannot say: schemaVersion first, testRunEnd last with an allowed status/result pair),
 * junit.xml against Surefire's XSD, and report.html for the structure this suite writes (self-contained, nothing
 * fetched). Each problem is one line naming the file.
 */
public final class RunFolderCheck {
    private static final Set<String> RUN_END_PAIRS =
            Set.of("SKIP/NOT_APPLICABLE", "ERROR/NOT_APPLICABLE", "COMPLETE/PASS", "COMPLETE/FAIL");
    private static final Pattern EXTERNAL =
            Pattern.compile("(?:src|href)\\s*=\\s*[\"']?\\s*(?:https?:)?//", Pattern.CASE_INSENSITIVE);

    private RunFolderCheck() {}

    /**
     * The problems of the run folder's files; empty when all four are valid.
     *
     * @throws ReportInputException when the folder or one of the four files is missing or unreadable
     */
    public static List<String> check(final Path runDir, final ReportSchemas schemas) throws ReportInputException {
        if (!Files.isDirectory(runDir)) {
            throw new ReportInputException(runDir + ": not a run folder (no such directory)");
        }
        final List<String> notText = new ArrayList<>();
        final String json = read(runDir, ReportWriters.REPORT_JSON, notText);
        final String ocptv = read(runDir, ReportWriters.OCPTV_JSONL, notText);
        final String junit = read(runDir, ReportWriters.JUNIT_XML, notText);
        final String html = read(runDir, ReportWriters.REPORT_HTML, notText);
        if (!notText.isEmpty()) {
            return notText; // a file that is not UTF-8 text is invalid, and nothing more can be said of it
        }
        final List<String> problems = new ArrayList<>();

        final List<String> jsonProblems = schemas.checkReportJson(ReportWriters.REPORT_JSON, json);
        problems.addAll(jsonProblems);
        if (jsonProblems.isEmpty()) {
            problems.addAll(reportContent(runDir, json));
        }
        final List<String> ocptvProblems = schemas.checkOcptv(ReportWriters.OCPTV_JSONL, ocptv);
        problems.addAll(ocptvProblems);
        if (ocptvProblems.isEmpty()) {
            problems.addAll(ocptvRules(ocptv));
        }
        problems.addAll(schemas.checkJunitXml(ReportWriters.JUNIT_XML, junit));
        problems.addAll(htmlStructure(html));
        return problems;
    }

    private static List<String> reportContent(final Path runDir, final String json) {
        final List<String> problems = new ArrayList<>();
        final String f = ReportWriters.REPORT_JSON;
        final RunRecord record;
        final JsonNode tree;
        try {
            record = JsonReportReader.parse(f, json);
            tree = JsonReport.MAPPER.readTree(json);
        } catch (IOException e) {
            problems.add(e.getMessage());
            return problems;
        }
        final VerdictCounts cases = VerdictCounts.of(record.cases(), CaseResult::verdict);
        final VerdictCounts clauses = VerdictCounts.of(record.clauses(), ClauseResult::verdict);
        for (final Verdict v : Verdict.values()) {
            count(problems, tree, "cases", v.name(), cases.get(v));
            count(problems, tree, "clauses", v.name(), clauses.get(v));
        }
        count(problems, tree, "cases", "total", cases.total());
        count(problems, tree, "clauses", "total", clauses.total());
        final String expectedStatus = RunStatus.of(record).label();
        if (!expectedStatus.equals(tree.path("status").asText())) {
            problems.add(f + ": /status: is '" + tree.path("status").asText() + "' but finishedAt and interrupted say '"
                    + expectedStatus + "'");
        }
        for (int i = 0; i < record.cases().size(); i++) {
            final CaseResult c = record.cases().get(i);
            if (c.evidence().pcapFile().isEmpty()) {
                continue;
            }
            final String name = c.evidence().pcapFile().get();
            final String where = f + ": /cases/" + i + "/evidence/pcapFile: " + name + ": ";
            try {
                final Path pcap = ReportWriters.inside(runDir, name);
                final int frames = PcapReader.readAll(pcap).size();
                if (frames != c.evidence().packets().size()) {
                    problems.add(where + "holds " + frames + " frames, the evidence lists "
                            + c.evidence().packets().size() + " packets");
                }
            } catch (IOException | RuntimeException e) {
                problems.add(where + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
            }
        }
        return problems;
    }

    private static void count(
            final List<String> problems, final JsonNode tree, final String what, final String key, final int actual) {
        final int written = tree.path("summary").path(what).path(key).asInt(-1);
        if (written != actual) {
            problems.add(ReportWriters.REPORT_JSON + ": /summary/" + what + "/" + key + ": says " + written + " but "
                    + actual + " " + what + " are listed");
        }
    }

    private static List<String> ocptvRules(final String ocptv) {
        final List<String> problems = new ArrayList<>();
        final String f = ReportWriters.OCPTV_JSONL;
        final List<String> lines = ocptv.lines().toList();
        try {
            if (!JsonReport.MAPPER.readTree(lines.get(0)).has("schemaVersion")) {
                problems.add(f + ":1: the first line must be the schemaVersion artifact");
            }
            final JsonNode end =
                    JsonReport.MAPPER.readTree(lines.get(lines.size() - 1)).at("/testRunArtifact/testRunEnd");
            if (!end.isObject()) {
                problems.add(f + ":" + lines.size() + ": the last line must be testRunEnd");
            } else {
                final String pair =
                        end.path("status").asText() + "/" + end.path("result").asText();
                if (!RUN_END_PAIRS.contains(pair)) {
                    problems.add(f + ":" + lines.size() + ": testRunEnd status/result " + pair
                            + " is not a combination the OCPTV 2.0 spec allows " + RUN_END_PAIRS);
                }
            }
            for (int i = 0; i < lines.size(); i++) {
                if (JsonReport.MAPPER
                                .readTree(lines.get(i))
                                .path("sequenceNumber")
                                .asInt(-1)
                        != i) {
                    problems.add(f + ":" + (i + 1) + ": sequenceNumber should be " + i);
                }
            }
        } catch (IOException e) {
            problems.add(f + ": " + e.getMessage()); // cannot happen after the schema check, but never crash
        }
        return problems;
    }

    private static List<String> htmlStructure(final String html) {
        final List<String> problems = new ArrayList<>();
        final String f = ReportWriters.REPORT_HTML;
        if (!html.startsWith("<!DOCTYPE html>")) {
            problems.add(f + ":1: does not start with <!DOCTYPE html>");
        }
        if (!html.contains("http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';")) {
            problems.add(f + ": has no Content-Security-Policy forbidding fetches");
        }
        if (!html.contains("id=\"summary\"") || !html.contains("id=\"clause-table\"")) {
            problems.add(f + ": has no summary or clause table (not a page this suite wrote?)");
        }
        final Matcher external = EXTERNAL.matcher(html);
        if (external.find()) {
            final int line = (int) html.substring(0, external.start())
                            .chars()
                            .filter(c -> c == '\n')
                            .count()
                    + 1;
            problems.add(f + ":" + line + ": refers to a network resource; the page must be self-contained");
        }
        if (!html.stripTrailing().endsWith("</html>")) {
            problems.add(f + ": ends before </html> (a truncated file?)");
        }
        return problems;
    }

    /**
     * The text of {@code name} in {@code runDir} (through {@link UserFiles}: a regular file, inside the folder, of at
     * most a report's size); a file that is not UTF-8 is a problem of the folder, added to {@code notText}.
     */
    private static String read(final Path runDir, final String name, final List<String> notText)
            throws ReportInputException {
        final Path file = runDir.resolve(name);
        try {
            return UserFiles.readUtf8Inside(runDir, file, UserFiles.Kind.REPORT);
        } catch (UserFileException e) {
            if (e.reason() == UserFileException.Reason.NOT_UTF8) {
                notText.add(name + ": " + e.problem());
                return "";
            }
            throw JsonReportReader.refused(e);
        }
    }
}
