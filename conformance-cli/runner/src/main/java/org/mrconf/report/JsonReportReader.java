package org.mrconf.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.mrconf.files.UserFileException;
import org.mrconf.files.UserFiles;
import org.mrconf.verdict.CaseKind;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.Evidence;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.VectorDigest;
import org.mrconf.verdict.Verdict;

/**
 * Reads a {@code report.json} back into the {@link RunRecord} it was written from, so report.html can be rebuilt
 * from the file of record. Accepts format 1.x (a newer minor only adds fields, which are ignored); anything else,
 * and any field of the wrong shape, is a {@link ReportInputException} naming the file and the field's JSON pointer.
 * Verdicts are read as written, never recomputed.
 */
public final class JsonReportReader {
    private final String file;

    private JsonReportReader(final String file) {
        this.file = file;
    }

    /** The run record in {@code reportJson}. */
    public static RunRecord read(final Path reportJson) throws ReportInputException {
        final String text;
        try {
            final Path folder = UserFiles.folderOf(reportJson);
            text = UserFiles.readUtf8Inside(folder, reportJson, UserFiles.Kind.REPORT);
        } catch (UserFileException e) {
            throw refused(e);
        }
        return parse(reportJson.toString(), text);
    }

    /** A report file {@link UserFiles} refused, as one line naming it. */
    static ReportInputException refused(final UserFileException e) {
        return e.reason() == UserFileException.Reason.MISSING
                ? new ReportInputException(e.file() + ": no such file")
                : new ReportInputException(e.getMessage(), e);
    }

    /** The run record in {@code text}; {@code file} names it in messages. */
    public static RunRecord parse(final String file, final String text) throws ReportInputException {
        final JsonNode root;
        try {
            root = JsonReport.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new ReportInputException(file + ": not JSON: " + e.getOriginalMessage()
                    + (e.getLocation() == null
                            ? ""
                            : " at line " + e.getLocation().getLineNr()));
        }
        return new JsonReportReader(file).record(root);
    }

    private RunRecord record(final JsonNode root) throws ReportInputException {
        if (root == null || !root.isObject()) {
            throw problem("", "a JSON object");
        }
        if (!JsonReport.FORMAT.equals(root.path("format").asText())) {
            throw problem("/format", "\"" + JsonReport.FORMAT + "\" (is this a MetaRoCE report.json?)");
        }
        final String version = text(root, "/formatVersion");
        if (!version.startsWith("1.")) {
            throw problem("/formatVersion", "1.x; this suite reads format 1, the file has " + version);
        }
        final JsonNode dut = object(root, "/dut");
        final RunRecord.DutDescription description = new RunRecord.DutDescription(
                text(dut, "/dut", "name"),
                text(dut, "/dut", "vendor"),
                text(dut, "/dut", "model"),
                text(dut, "/dut", "firmware"),
                text(dut, "/dut", "driver"),
                strings(dut, "/dut", "profiles"),
                strings(dut, "/dut", "optionalClauses"),
                strings(dut, "/dut", "defects"),
                stringMap(dut, "/dut", "parameters"),
                text(dut, "/dut", "link"));
        final JsonNode finished = root.get("finishedAt");
        final Optional<Instant> finishedAt =
                finished == null || finished.isNull() ? Optional.empty() : Optional.of(instant(root, "/finishedAt"));
        final List<CaseResult> cases = new ArrayList<>();
        final JsonNode caseNodes = array(root, "/cases");
        for (int i = 0; i < caseNodes.size(); i++) {
            cases.add(caseResult(caseNodes.get(i), "/cases/" + i));
        }
        final List<ClauseResult> clauses = new ArrayList<>();
        final JsonNode clauseNodes = array(root, "/clauses");
        for (int i = 0; i < clauseNodes.size(); i++) {
            final JsonNode c = clauseNodes.get(i);
            final String at = "/clauses/" + i;
            clauses.add(new ClauseResult(
                    text(c, at, "id"),
                    text(c, at, "title"),
                    text(c, at, "level"),
                    text(c, at, "profile"),
                    verdict(c, at),
                    text(c, at, "reason"),
                    strings(c, at, "cases"),
                    notExercised(c, at)));
        }
        return new RunRecord(
                text(object(root, "/suite"), "/suite", "version"),
                text(object(root, "/suite"), "/suite", "commit"),
                text(object(root, "/spec"), "/spec", "version"),
                text(root, "/commandLine"),
                description,
                instant(root, "/startedAt"),
                finishedAt,
                bool(root, "/interrupted"),
                stringMap(root, "", "selection"),
                cases,
                clauses,
                vectors(root));
    }

    /** The vectors' hashes; a report without the array (older writers) or without {@code files} reads as none. */
    private List<VectorDigest> vectors(final JsonNode root) throws ReportInputException {
        final List<VectorDigest> vectors = new ArrayList<>();
        if (root.get("vectors") == null) {
            return vectors;
        }
        final JsonNode nodes = array(root, "/vectors");
        for (int i = 0; i < nodes.size(); i++) {
            final String at = "/vectors/" + i;
            final JsonNode v = objectAt(nodes.get(i), at);
            final Map<String, String> files = v.get("files") == null ? Map.of() : stringMap(v, at, "files");
            vectors.add(new VectorDigest(text(v, at, "id"), text(v, at, "sha256"), new TreeMap<>(files)));
        }
        return vectors;
    }

    /** A clause's test purposes not exercised (format 1.1); a 1.0 report has none and reads as none. */
    private List<ClauseResult.NotExercised> notExercised(final JsonNode clause, final String at)
            throws ReportInputException {
        final List<ClauseResult.NotExercised> out = new ArrayList<>();
        if (clause.get("notExercised") == null) {
            return out;
        }
        final JsonNode nodes = array(clause, at, "notExercised");
        for (int i = 0; i < nodes.size(); i++) {
            final String nat = at + "/notExercised/" + i;
            final JsonNode n = objectAt(nodes.get(i), nat);
            out.add(new ClauseResult.NotExercised(text(n, nat, "case"), verdict(n, nat), text(n, nat, "reason")));
        }
        return out;
    }

    private CaseResult caseResult(final JsonNode c, final String at) throws ReportInputException {
        if (!c.isObject()) {
            throw problem(at, "an object");
        }
        final JsonNode e = objectAt(c.get("evidence"), at + "/evidence");
        final List<Evidence.PacketRecord> packets = new ArrayList<>();
        final JsonNode packetNodes = array(e, at + "/evidence", "packets");
        for (int i = 0; i < packetNodes.size(); i++) {
            final JsonNode p = packetNodes.get(i);
            final String pat = at + "/evidence/packets/" + i;
            packets.add(new Evidence.PacketRecord(
                    number(p, pat, "timeNs"), text(p, pat, "direction"), text(p, pat, "summary"), text(p, pat, "hex")));
        }
        final JsonNode pcap = e.get("pcapFile");
        final Optional<String> pcapFile =
                pcap == null || pcap.isNull() ? Optional.empty() : Optional.of(text(e, at + "/evidence", "pcapFile"));
        final String kind = text(c, at, "kind");
        final CaseKind caseKind;
        try {
            caseKind = CaseKind.valueOf(kind);
        } catch (IllegalArgumentException ex) {
            throw problem(at + "/kind", "VALID, INVALID or INOPPORTUNE, not '" + kind + "'");
        }
        final long duration = number(c, at, "durationNs");
        if (duration < 0) {
            throw problem(at + "/durationNs", "a duration of 0 or more");
        }
        return new CaseResult(
                text(c, at, "id"),
                text(c, at, "title"),
                strings(c, at, "clauses"),
                caseKind,
                verdict(c, at),
                text(c, at, "message"),
                instant(c, at + "/startedAt", c.get("startedAt")),
                duration,
                new Evidence(
                        text(e, at + "/evidence", "expected"), text(e, at + "/evidence", "actual"), packets, pcapFile));
    }

    private Verdict verdict(final JsonNode parent, final String at) throws ReportInputException {
        final String v = text(parent, at, "verdict");
        try {
            return Verdict.valueOf(v);
        } catch (IllegalArgumentException e) {
            throw problem(
                    at + "/verdict", "one of PASS, WARN, INCONCLUSIVE, ERROR, FAIL, NOT_APPLICABLE, not '" + v + "'");
        }
    }

    private String text(final JsonNode root, final String pointer) throws ReportInputException {
        final JsonNode n = root.at(pointer);
        if (!n.isTextual()) {
            throw problem(pointer, "a string");
        }
        return n.asText();
    }

    private String text(final JsonNode parent, final String at, final String field) throws ReportInputException {
        final JsonNode n = parent.get(field);
        if (n == null || !n.isTextual()) {
            throw problem(at + "/" + field, "a string");
        }
        return n.asText();
    }

    private long number(final JsonNode parent, final String at, final String field) throws ReportInputException {
        final JsonNode n = parent.get(field);
        if (n == null || !n.canConvertToLong() || !n.isIntegralNumber()) {
            throw problem(at + "/" + field, "an integer");
        }
        return n.asLong();
    }

    private boolean bool(final JsonNode root, final String pointer) throws ReportInputException {
        final JsonNode n = root.at(pointer);
        if (!n.isBoolean()) {
            throw problem(pointer, "true or false");
        }
        return n.asBoolean();
    }

    private Instant instant(final JsonNode root, final String pointer) throws ReportInputException {
        return instant(root, pointer, root.at(pointer));
    }

    private Instant instant(final JsonNode root, final String pointer, final JsonNode n) throws ReportInputException {
        if (n == null || !n.isTextual()) {
            throw problem(pointer, "an ISO-8601 UTC instant such as 2026-11-30T10:00:00Z");
        }
        try {
            return Instant.parse(n.asText());
        } catch (DateTimeParseException e) {
            throw problem(pointer, "an ISO-8601 UTC instant such as 2026-11-30T10:00:00Z, not '" + n.asText() + "'");
        }
    }

    private JsonNode object(final JsonNode root, final String pointer) throws ReportInputException {
        return objectAt(root.at(pointer), pointer);
    }

    private JsonNode objectAt(final JsonNode n, final String pointer) throws ReportInputException {
        if (n == null || !n.isObject()) {
            throw problem(pointer, "an object");
        }
        return n;
    }

    private JsonNode array(final JsonNode root, final String pointer) throws ReportInputException {
        final JsonNode n = root.at(pointer);
        if (!n.isArray()) {
            throw problem(pointer, "an array");
        }
        return n;
    }

    private JsonNode array(final JsonNode parent, final String at, final String field) throws ReportInputException {
        final JsonNode n = parent.get(field);
        if (n == null || !n.isArray()) {
            throw problem(at + "/" + field, "an array");
        }
        return n;
    }

    private List<String> strings(final JsonNode parent, final String at, final String field)
            throws ReportInputException {
        final JsonNode n = array(parent, at, field);
        final List<String> out = new ArrayList<>();
        for (int i = 0; i < n.size(); i++) {
            if (!n.get(i).isTextual()) {
                throw problem(at + "/" + field + "/" + i, "a string");
            }
            out.add(n.get(i).asText());
        }
        return out;
    }

    private Map<String, String> stringMap(final JsonNode parent, final String at, final String field)
            throws ReportInputException {
        final JsonNode n = parent.get(field);
        if (n == null || !n.isObject()) {
            throw problem(at + "/" + field, "an object of strings");
        }
        final Map<String, String> out = new LinkedHashMap<>();
        final var fields = n.fields();
        while (fields.hasNext()) {
            final var entry = fields.next();
            if (!entry.getValue().isTextual()) {
                throw problem(at + "/" + field + "/" + entry.getKey(), "a string");
            }
            out.put(entry.getKey(), entry.getValue().asText());
        }
        return out;
    }

    private ReportInputException problem(final String pointer, final String expected) {
        return new ReportInputException(
                file + ": field " + (pointer.isEmpty() ? "(root)" : pointer) + ": expected " + expected);
    }
}
