package org.mrconf.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.Evidence;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.VectorDigest;
import org.mrconf.verdict.Verdict;

/**
 * Turns a {@link RunRecord} into {@code report.json}, the file of record that the other formats can be rebuilt
 * from. The layout is defined by {@link #SCHEMA_RESOURCE} (format {@value #FORMAT_VERSION}); fields come out in a
 * fixed order and maps sorted, so the same record always gives the same bytes.
 */
public final class JsonReport {
    /** The report format's name, in every file's {@code format} field. */
    public static final String FORMAT = "metaroce-report";
    /**
     * Major.minor: a reader accepts any minor of the major it knows (minors only add optional fields). 1.1 added each
     * clause's {@code partial} and {@code notExercised}.
     */
    public static final String FORMAT_VERSION = "1.1";
    /** The schema's {@code $id}, written as {@code $schema} of every report. */
    public static final String SCHEMA_ID = "urn:mrconf:schema:metaroce-report:1.1";
    /** Where the schema sits on the classpath. */
    public static final String SCHEMA_RESOURCE = "/schemas/metaroce-report-1.1.schema.json";
    /** The {@code $id} of format 1.0's schema, which reports written before 1.1 name; still checked against it. */
    public static final String SCHEMA_ID_1_0 = "urn:mrconf:schema:metaroce-report:1.0";
    /** Where format 1.0's schema sits on the classpath (never edited). */
    public static final String SCHEMA_RESOURCE_1_0 = "/schemas/metaroce-report-1.0.schema.json";

    static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonReport() {}

    /** The report as pretty-printed JSON text ending in a newline. */
    public static String toJson(final RunRecord record) {
        try {
            return MAPPER.writeValueAsString(toTree(record)) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of strings and numbers always serialises", e);
        }
    }

    static ObjectNode toTree(final RunRecord record) {
        final ObjectNode root = MAPPER.createObjectNode();
        root.put("$schema", SCHEMA_ID);
        root.put("format", FORMAT);
        root.put("formatVersion", FORMAT_VERSION);
        final ObjectNode suite = root.putObject("suite");
        suite.put("version", record.suiteVersion());
        suite.put("commit", record.suiteCommit());
        final ObjectNode spec = root.putObject("spec");
        spec.put("name", "MetaRoCE Open Draft");
        spec.put("version", record.specVersion());
        root.put("commandLine", record.commandLine());
        root.put("startedAt", record.startedAt().toString());
        if (record.finishedAt().isPresent()) {
            root.put("finishedAt", record.finishedAt().get().toString());
        } else {
            root.putNull("finishedAt");
        }
        root.put("status", RunStatus.of(record).label());
        root.put("interrupted", record.interrupted());
        putSortedMap(root.putObject("selection"), record.selection());
        putDut(root.putObject("dut"), record.dut());
        final ObjectNode summary = root.putObject("summary");
        putCounts(summary.putObject("cases"), VerdictCounts.of(record.cases(), CaseResult::verdict));
        putCounts(summary.putObject("clauses"), VerdictCounts.of(record.clauses(), ClauseResult::verdict));
        final ArrayNode clauses = root.putArray("clauses");
        for (final ClauseResult c : record.clauses()) {
            final ObjectNode n = clauses.addObject();
            n.put("id", c.clauseId());
            n.put("title", c.title());
            n.put("level", c.level());
            n.put("profile", c.profile());
            n.put("verdict", c.verdict().name());
            n.put("reason", c.reason());
            putStrings(n.putArray("cases"), c.caseIds());
            n.put("partial", c.partial());
            final ArrayNode missing = n.putArray("notExercised");
            for (final ClauseResult.NotExercised m : c.notExercised()) {
                final ObjectNode mn = missing.addObject();
                mn.put("case", m.caseId());
                mn.put("verdict", m.verdict().name());
                mn.put("reason", m.reason());
            }
        }
        final ArrayNode cases = root.putArray("cases");
        for (final CaseResult c : record.cases()) {
            putCase(cases.addObject(), c);
        }
        final ArrayNode vectors = root.putArray("vectors");
        for (final VectorDigest v : record.vectors()) {
            final ObjectNode n = vectors.addObject();
            n.put("id", v.id());
            n.put("sha256", v.sha256());
            v.files().forEach(n.putObject("files")::put);
        }
        return root;
    }

    private static void putDut(final ObjectNode n, final RunRecord.DutDescription dut) {
        n.put("name", dut.name());
        n.put("vendor", dut.vendor());
        n.put("model", dut.model());
        n.put("firmware", dut.firmware());
        n.put("driver", dut.driver());
        n.put("link", dut.link());
        putStrings(n.putArray("profiles"), dut.profiles());
        putStrings(n.putArray("optionalClauses"), dut.optionalClauses());
        putStrings(n.putArray("defects"), dut.defects());
        putSortedMap(n.putObject("parameters"), dut.parameters());
    }

    private static void putCase(final ObjectNode n, final CaseResult c) {
        n.put("id", c.caseId());
        n.put("title", c.title());
        putStrings(n.putArray("clauses"), c.clauses());
        n.put("kind", c.kind().name());
        n.put("verdict", c.verdict().name());
        n.put("message", c.message());
        n.put("startedAt", c.startedAt().toString());
        n.put("durationNs", c.durationNs());
        final Evidence e = c.evidence();
        final ObjectNode evidence = n.putObject("evidence");
        evidence.put("expected", e.expected());
        evidence.put("actual", e.actual());
        final ArrayNode packets = evidence.putArray("packets");
        for (final Evidence.PacketRecord p : e.packets()) {
            final ObjectNode pn = packets.addObject();
            pn.put("timeNs", p.timeNs());
            pn.put("direction", p.direction());
            pn.put("summary", p.summary());
            pn.put("hex", p.hex());
        }
        if (e.pcapFile().isPresent()) {
            evidence.put("pcapFile", e.pcapFile().get());
        } else {
            evidence.putNull("pcapFile");
        }
    }

    private static void putCounts(final ObjectNode n, final VerdictCounts counts) {
        n.put("total", counts.total());
        for (final Verdict v : Verdict.values()) {
            n.put(v.name(), counts.get(v));
        }
    }

    private static void putStrings(final ArrayNode n, final List<String> values) {
        values.forEach(n::add);
    }

    private static void putSortedMap(final ObjectNode n, final Map<String, String> map) {
        new TreeMap<>(map).forEach(n::put);
    }
}
