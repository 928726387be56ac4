package org.mrconf.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;

/**
 * Turns a {@link RunRecord} into {@code ocptv.jsonl}, the OCP Test and Validation output format 2.0: the
 * schemaVersion line first, then testRunStart with dutInfo from the device's declarations, one test step per
 * clause (start, an error for a harness ERROR, measurements with validators where a case's evidence or message is a
 * numeric check, a file artifact for each case's evidence pcap, a warning log for WARN, one diagnosis, end) and
 * testRunEnd. Only the status/result pairs the spec allows
 * are written: COMPLETE with PASS or FAIL, ERROR or SKIP with NOT_APPLICABLE. Timestamps come from the record, so the
 * same record always gives the same lines.
 */
public final class OcptvReport {
    static final String DUT_INFO_ID = "dut0";
    static final String HARDWARE_ID = "nic0";

    private static final ObjectWriter LINE = JsonReport.MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT);

    private OcptvReport() {}

    /** The JSON lines, each ending in a newline. */
    public static String toJsonl(final RunRecord record) {
        final Lines out = new Lines();
        final ObjectNode version = JsonReport.MAPPER.createObjectNode();
        version.putObject("schemaVersion").put("major", 2).put("minor", 0);
        out.add(version, record.startedAt());
        out.add(runArtifact("testRunStart", testRunStart(record)), record.startedAt());

        final Map<String, CaseResult> cases = new LinkedHashMap<>();
        record.cases().forEach(c -> cases.put(c.caseId(), c));
        // Steps overlap in time (a case can verify several clauses), so their artifacts are merged into one
        // timeline: timestamps never go backwards, and testStepId tells the steps apart.
        final List<Event> timeline = new ArrayList<>();
        int stepId = 0;
        for (final ClauseResult clause : record.clauses()) {
            step(
                    timeline,
                    stepId++,
                    clause,
                    clause.caseIds().stream()
                            .map(cases::get)
                            .filter(c -> c != null)
                            .toList(),
                    record.startedAt());
        }
        timeline.sort(
                Comparator.comparing(Event::at).thenComparingInt(Event::step).thenComparingInt(Event::order));
        timeline.forEach(e -> out.add(e.artifact(), e.at()));

        final Instant end = record.finishedAt().orElse(lastCaseEnd(record));
        final RunStatus status = RunStatus.of(record);
        if (status != RunStatus.COMPLETE) {
            final ObjectNode log = JsonReport.MAPPER.createObjectNode();
            log.put("severity", "WARNING");
            log.put(
                    "message",
                    status == RunStatus.INTERRUPTED
                            ? "the run was interrupted: verdicts of the cases that did not run are missing"
                            : "the run has not finished (or its process died): verdicts may be missing");
            out.add(runArtifact("log", log), end);
        }
        final String[] statusAndResult = runEnd(record, status);
        final ObjectNode runEnd = JsonReport.MAPPER.createObjectNode();
        runEnd.put("status", statusAndResult[0]);
        runEnd.put("result", statusAndResult[1]);
        out.add(runArtifact("testRunEnd", runEnd), end);
        return out.text.toString();
    }

    /**
     * The run's status and result: SKIP/NOT_APPLICABLE when cut short or still running ("an external request to
     * abort"), ERROR/NOT_APPLICABLE when the harness failed on any clause, COMPLETE/FAIL when a clause failed,
     * SKIP/NOT_APPLICABLE when a clause stayed INCONCLUSIVE or every clause was NOT_APPLICABLE (no verdict could be
     * rendered), else COMPLETE/PASS.
     */
    static String[] runEnd(final RunRecord record, final RunStatus status) {
        final VerdictCounts clauses = VerdictCounts.of(record.clauses(), ClauseResult::verdict);
        if (status != RunStatus.COMPLETE) {
            return new String[] {"SKIP", "NOT_APPLICABLE"};
        }
        if (clauses.get(Verdict.ERROR) > 0) {
            return new String[] {"ERROR", "NOT_APPLICABLE"};
        }
        if (clauses.get(Verdict.FAIL) > 0) {
            return new String[] {"COMPLETE", "FAIL"};
        }
        if (clauses.get(Verdict.INCONCLUSIVE) > 0 || clauses.get(Verdict.NOT_APPLICABLE) == clauses.total()) {
            return new String[] {"SKIP", "NOT_APPLICABLE"};
        }
        return new String[] {"COMPLETE", "PASS"};
    }

    private static void step(
            final List<Event> timeline,
            final int step,
            final ClauseResult clause,
            final List<CaseResult> cases,
            final Instant runStart) {
        final String id = String.valueOf(step);
        final StepEvents out = (artifact, at) -> timeline.add(new Event(at, step, timeline.size(), artifact));
        final Instant start = cases.stream()
                .map(CaseResult::startedAt)
                .min(Instant::compareTo)
                .orElse(runStart);
        final Instant end = cases.stream()
                .map(c -> c.startedAt().plusNanos(c.durationNs()))
                .max(Instant::compareTo)
                .orElse(start);
        final ObjectNode stepStart = JsonReport.MAPPER.createObjectNode();
        stepStart.put("name", clause.clauseId() + " " + clause.title());
        out.add(stepArtifact(id, "testStepStart", stepStart), start);

        if (clause.verdict() == Verdict.ERROR) {
            final ObjectNode error = JsonReport.MAPPER.createObjectNode();
            error.put("symptom", "metaroce-harness-error");
            error.put("message", clause.reason());
            out.add(stepArtifact(id, "error", error), end);
        }
        for (final CaseResult c : cases) {
            final List<NumericCheck> checks = checks(c);
            final Instant caseEnd = c.startedAt().plusNanos(c.durationNs());
            if (!checks.isEmpty()) {
                out.add(stepArtifact(id, "measurement", measurement(c, checks)), caseEnd);
            }
            c.evidence().pcapFile().ifPresent(f -> out.add(stepArtifact(id, "file", evidenceFile(c, f)), caseEnd));
        }
        if (clause.notFullyExercised()) {
            final ObjectNode log = JsonReport.MAPPER.createObjectNode();
            log.put("severity", "INFO");
            log.put(
                    "message",
                    "clause " + clause.clauseId() + " is " + clause.label() + ": not exercised in this run: "
                            + clause.notExercisedSummary());
            out.add(stepArtifact(id, "log", log), end);
        }
        if (clause.verdict() == Verdict.WARN) {
            final ObjectNode log = JsonReport.MAPPER.createObjectNode();
            log.put("severity", "WARNING");
            log.put("message", "SHOULD clause " + clause.clauseId() + " not met: " + clause.reason());
            out.add(stepArtifact(id, "log", log), end);
        }
        final ObjectNode diagnosis = JsonReport.MAPPER.createObjectNode();
        diagnosis.put("verdict", diagnosisVerdict(clause));
        diagnosis.put("type", diagnosisType(clause.verdict()));
        diagnosis.put("message", diagnosisMessage(clause));
        diagnosis.put("hardwareInfoId", HARDWARE_ID);
        out.add(stepArtifact(id, "diagnosis", diagnosis), end);

        final ObjectNode stepEnd = JsonReport.MAPPER.createObjectNode();
        stepEnd.put(
                "status",
                switch (clause.verdict()) {
                    case ERROR -> "ERROR";
                    case NOT_APPLICABLE -> "SKIP";
                    default -> "COMPLETE";
                });
        out.add(stepArtifact(id, "testStepEnd", stepEnd), end);
    }

    /**
     * PASS for PASS and WARN (a missed SHOULD is reported as a warning log, not a non-conformance), FAIL for FAIL,
     * UNKNOWN for what the tester could not decide (INCONCLUSIVE, ERROR, NOT_APPLICABLE).
     */
    static String diagnosisType(final Verdict verdict) {
        return switch (verdict) {
            case PASS, WARN -> "PASS";
            case FAIL -> "FAIL";
            case INCONCLUSIVE, ERROR, NOT_APPLICABLE -> "UNKNOWN";
        };
    }

    /**
     * {@code metaroce-<verdict>}, with {@code -partial} for a PASS or WARN with a test purpose not exercised and
     * {@code -not-exercised} for a clause that applies but none of whose cases could run: e.g.
     * {@code metaroce-pass-partial}, {@code metaroce-not-applicable-not-exercised}.
     */
    static String diagnosisVerdict(final ClauseResult clause) {
        final String base = "metaroce-"
                + clause.verdict().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        if (clause.partial()) {
            return base + "-partial";
        }
        return clause.unexercised() ? base + "-not-exercised" : base;
    }

    private static String diagnosisMessage(final ClauseResult clause) {
        final String head =
                clause.level() + " clause " + clause.clauseId() + " (" + clause.profile() + "): " + clause.label();
        final String withReason = clause.reason().isEmpty() ? head : head + ": " + clause.reason();
        return !clause.notFullyExercised()
                ? withReason
                : withReason + "; not exercised: " + clause.notExercisedSummary();
    }

    /**
     * The numeric checks of a case: from its evidence's expected and actual values when they are numbers, else from
     * what its message states ({@link NumericCheck#fromMessage}); none when neither holds numbers.
     */
    static List<NumericCheck> checks(final CaseResult c) {
        final Optional<NumericCheck> check =
                NumericCheck.of(c.evidence().expected(), c.evidence().actual());
        return check.isPresent() ? List.of(check.get()) : NumericCheck.fromMessage(c.message());
    }

    private static ObjectNode measurement(final CaseResult c, final List<NumericCheck> checks) {
        final ObjectNode m = JsonReport.MAPPER.createObjectNode();
        m.put("name", c.caseId());
        m.put("value", checks.get(0).value());
        if (!checks.get(0).unit().isEmpty()) {
            m.put("unit", checks.get(0).unit());
        }
        final ArrayNode validators = m.putArray("validators");
        for (final NumericCheck check : checks) {
            final ObjectNode v = validators.addObject();
            v.put("name", "expected");
            v.put("type", check.validator());
            v.put("value", check.limit());
        }
        m.put("hardwareInfoId", HARDWARE_ID);
        final ObjectNode metadata = m.putObject("metadata");
        metadata.put("case", c.caseId());
        metadata.put("verdict", c.verdict().name());
        metadata.put("clauses", String.join(",", c.clauses()));
        final String about = NumericCheck.description(c.message());
        if (!about.isEmpty()) {
            metadata.put("check", about);
        }
        return m;
    }

    /** A file artifact pointing at a case's evidence capture, relative to the run folder as report.json has it. */
    private static ObjectNode evidenceFile(final CaseResult c, final String pcap) {
        final ObjectNode f = JsonReport.MAPPER.createObjectNode();
        f.put("displayName", c.caseId() + " evidence");
        f.put("uri", pcap);
        f.put("isSnapshot", false);
        f.put(
                "description",
                "The packets of " + c.caseId() + " (" + c.verdict().name()
                        + "), with Ethernet/IPv4/UDP framing added for Wireshark; a path relative to the run folder");
        f.put("contentType", "application/vnd.tcpdump.pcap");
        return f;
    }

    private static ObjectNode testRunStart(final RunRecord record) {
        final ObjectNode start = JsonReport.MAPPER.createObjectNode();
        start.put("name", "metaroce-conformance");
        start.put("version", record.suiteVersion());
        start.put("commandLine", record.commandLine());
        final ObjectNode parameters = start.putObject("parameters");
        parameters.put("spec", "MetaRoCE Open Draft");
        parameters.put("specVersion", record.specVersion());
        parameters.put("suiteCommit", record.suiteCommit());
        final ObjectNode selection = parameters.putObject("selection");
        new TreeMap<>(record.selection()).forEach(selection::put);
        final ObjectNode dutParameters = parameters.putObject("dutParameters");
        new TreeMap<>(record.dut().parameters()).forEach(dutParameters::put);
        start.set("dutInfo", dutInfo(record.dut()));
        final ObjectNode metadata = start.putObject("metadata");
        metadata.put("reportFormat", JsonReport.FORMAT + " " + JsonReport.FORMAT_VERSION);
        metadata.put("notMeta", "an open, independent suite; not Meta's specification or test suite");
        return start;
    }

    private static ObjectNode dutInfo(final RunRecord.DutDescription dut) {
        final ObjectNode info = JsonReport.MAPPER.createObjectNode();
        info.put("dutInfoId", DUT_INFO_ID);
        info.put("name", dut.name());
        info.putArray("platformInfos").addObject().put("info", "MetaRoCE link: " + dut.link());
        final ArrayNode software = info.putArray("softwareInfos");
        software.addObject()
                .put("softwareInfoId", "firmware0")
                .put("name", "firmware")
                .put("version", dut.firmware())
                .put("softwareType", "FIRMWARE");
        software.addObject()
                .put("softwareInfoId", "driver0")
                .put("name", "driver")
                .put("version", dut.driver())
                .put("softwareType", "SYSTEM");
        info.putArray("hardwareInfos")
                .addObject()
                .put("hardwareInfoId", HARDWARE_ID)
                .put("name", dut.model())
                .put("manufacturer", dut.vendor());
        final ObjectNode metadata = info.putObject("metadata");
        final ArrayNode profiles = metadata.putArray("profiles");
        dut.profiles().forEach(profiles::add);
        final ArrayNode optional = metadata.putArray("optionalClauses");
        dut.optionalClauses().forEach(optional::add);
        final ArrayNode defects = metadata.putArray("defects");
        dut.defects().forEach(defects::add);
        return info;
    }

    private static ObjectNode runArtifact(final String kind, final ObjectNode body) {
        final ObjectNode n = JsonReport.MAPPER.createObjectNode();
        n.putObject("testRunArtifact").set(kind, body);
        return n;
    }

    private static ObjectNode stepArtifact(final String stepId, final String kind, final ObjectNode body) {
        final ObjectNode n = JsonReport.MAPPER.createObjectNode();
        final ObjectNode a = n.putObject("testStepArtifact");
        a.put("testStepId", stepId);
        a.set(kind, body);
        return n;
    }

    private static Instant lastCaseEnd(final RunRecord record) {
        return record.cases().stream()
                .map(c -> c.startedAt().plusNanos(c.durationNs()))
                .max(Instant::compareTo)
                .orElse(record.startedAt());
    }

    /** One artifact of a step, placed on the run's timeline. */
    private record Event(Instant at, int step, int order, ObjectNode artifact) {}

    @FunctionalInterface
    private interface StepEvents {
        void add(ObjectNode artifact, Instant at);
    }

    /** Numbers the lines and stamps them. */
    private static final class Lines {
        private final StringBuilder text = new StringBuilder(4096);
        private int sequence;

        void add(final ObjectNode artifact, final Instant at) {
            artifact.put("sequenceNumber", sequence++);
            artifact.put("timestamp", at.toString());
            try {
                text.append(LINE.writeValueAsString(artifact)).append('\n');
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("a tree of strings and numbers always serialises", e);
            }
        }
    }
}
