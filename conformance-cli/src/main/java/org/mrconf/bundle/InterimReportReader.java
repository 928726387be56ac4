package org.mrconf.bundle;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.mrconf.verdict.CaseKind;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.Evidence;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;

/**
 * Reads report.json (format 1.0 of {@code org.mrconf.report.JsonReport}) back into a {@link RunRecord}, until the
 * report module ships its own reader; then this class goes and the bundle uses that one. Missing or mistyped fields
 * are named; the schema check reports the rest.
 */
final class InterimReportReader implements RunFolder.Reader {
    @Override
    public RunRecord read(final Path reportJson) throws IOException {
        final JsonNode root = BundleDocuments.MAPPER.readTree(reportJson.toFile());
        final Fields f = new Fields(reportJson);
        final JsonNode dut = f.object(root, "dut");
        final RunRecord.DutDescription description = new RunRecord.DutDescription(
                f.text(dut, "dut.name"),
                f.text(dut, "dut.vendor"),
                f.text(dut, "dut.model"),
                f.text(dut, "dut.firmware"),
                f.text(dut, "dut.driver"),
                f.strings(dut, "dut.profiles"),
                f.strings(dut, "dut.optionalClauses"),
                f.strings(dut, "dut.defects"),
                f.map(dut, "dut.parameters"),
                f.text(dut, "dut.link"));
        final List<CaseResult> cases = new ArrayList<>();
        for (final JsonNode c : f.array(root, "cases")) {
            final JsonNode e = f.object(c, "cases[].evidence");
            final List<Evidence.PacketRecord> packets = new ArrayList<>();
            for (final JsonNode p : f.array(e, "cases[].evidence.packets")) {
                packets.add(new Evidence.PacketRecord(
                        p.path("timeNs").asLong(),
                        f.text(p, "packets[].direction"),
                        f.text(p, "packets[].summary"),
                        f.text(p, "packets[].hex")));
            }
            cases.add(new CaseResult(
                    f.text(c, "cases[].id"),
                    f.text(c, "cases[].title"),
                    f.strings(c, "cases[].clauses"),
                    f.enumValue(CaseKind.class, c, "cases[].kind"),
                    f.enumValue(Verdict.class, c, "cases[].verdict"),
                    f.text(c, "cases[].message"),
                    f.instant(c, "cases[].startedAt"),
                    c.path("durationNs").asLong(),
                    new Evidence(
                            f.text(e, "evidence.expected"),
                            f.text(e, "evidence.actual"),
                            packets,
                            Optional.ofNullable(e.path("pcapFile").textValue()))));
        }
        final List<ClauseResult> clauses = new ArrayList<>();
        for (final JsonNode c : f.array(root, "clauses")) {
            clauses.add(new ClauseResult(
                    f.text(c, "clauses[].id"),
                    f.text(c, "clauses[].title"),
                    f.text(c, "clauses[].level"),
                    f.text(c, "clauses[].profile"),
                    f.enumValue(Verdict.class, c, "clauses[].verdict"),
                    f.text(c, "clauses[].reason"),
                    f.strings(c, "clauses[].cases")));
        }
        final JsonNode finished = root.path("finishedAt");
        return new RunRecord(
                f.text(f.object(root, "suite"), "suite.version"),
                f.text(root.path("suite"), "suite.commit"),
                f.text(f.object(root, "spec"), "spec.version"),
                f.text(root, "commandLine"),
                description,
                f.instant(root, "startedAt"),
                finished.isTextual() ? Optional.of(f.instant(root, "finishedAt")) : Optional.empty(),
                root.path("interrupted").asBoolean(false),
                f.map(root, "selection"),
                cases,
                clauses);
    }

    /** Field access that names the file and field when one is missing or of the wrong type. */
    private record Fields(Path file) {
        JsonNode object(final JsonNode parent, final String name) {
            final JsonNode node = parent.path(last(name));
            if (!node.isObject()) {
                throw bad(name, "an object");
            }
            return node;
        }

        Iterable<JsonNode> array(final JsonNode parent, final String name) {
            final JsonNode node = parent.path(last(name));
            if (!node.isArray()) {
                throw bad(name, "an array");
            }
            return node;
        }

        String text(final JsonNode parent, final String name) {
            final JsonNode node = parent.path(last(name));
            if (!node.isTextual()) {
                throw bad(name, "a string");
            }
            return node.textValue();
        }

        List<String> strings(final JsonNode parent, final String name) {
            final List<String> out = new ArrayList<>();
            for (final JsonNode item : array(parent, name)) {
                if (!item.isTextual()) {
                    throw bad(name, "an array of strings");
                }
                out.add(item.textValue());
            }
            return out;
        }

        Map<String, String> map(final JsonNode parent, final String name) {
            final JsonNode node = object(parent, name);
            final Map<String, String> out = new TreeMap<>();
            node.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
            return out;
        }

        Instant instant(final JsonNode parent, final String name) {
            try {
                return Instant.parse(text(parent, name));
            } catch (java.time.format.DateTimeParseException e) {
                throw bad(name, "an ISO-8601 instant");
            }
        }

        <E extends Enum<E>> E enumValue(final Class<E> type, final JsonNode parent, final String name) {
            try {
                return Enum.valueOf(type, text(parent, name));
            } catch (IllegalArgumentException e) {
                throw bad(name, "one of " + java.util.Arrays.toString(type.getEnumConstants()));
            }
        }

        private IllegalArgumentException bad(final String name, final String what) {
            return new IllegalArgumentException(file + ": field " + name + " must be " + what);
        }

        private static String last(final String name) {
            return name.substring(name.lastIndexOf('.') + 1).replace("[]", "");
        }
    }
}
