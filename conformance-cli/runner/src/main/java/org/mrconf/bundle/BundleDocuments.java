package org.mrconf.bundle;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.VectorDigest;

/**
 * The JSON documents a bundle adds to the run folder: {@code product.json}, {@code suite.json},
 * {@code environment.json} and {@code vectors/manifest.json}. Each comes out with a fixed field order and sorted
 * maps, so the same run always gives the same bytes.
 */
final class BundleDocuments {
    /** {@code format} of every document, with a version so a later layout can be told apart. */
    static final String FORMAT = "metaroce-bundle";

    static final String FORMAT_VERSION = "1.0";

    static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private BundleDocuments() {}

    /** Who made the device and what it claims, from the device declaration and {@code hello} as the run recorded them. */
    static ObjectNode product(final RunRecord record) {
        final RunRecord.DutDescription dut = record.dut();
        final ObjectNode n = header("product");
        n.put("vendor", dut.vendor());
        n.put("model", dut.model());
        n.put("firmware", dut.firmware());
        n.put("driver", dut.driver());
        strings(n.putArray("claimedProfiles"), dut.profiles());
        strings(n.putArray("optionalClauses"), dut.optionalClauses());
        strings(n.putArray("defects"), dut.defects());
        n.put("target", dut.name());
        n.put("link", dut.link());
        sorted(n.putObject("parameters"), dut.parameters());
        return n;
    }

    /** What was run: suite and spec versions, the exact command line, the selection and when. */
    static ObjectNode suite(final RunRecord record) {
        final ObjectNode n = header("suite");
        n.put("suiteVersion", record.suiteVersion());
        n.put("suiteCommit", record.suiteCommit());
        n.put("specVersion", record.specVersion());
        n.put("commandLine", record.commandLine());
        sorted(n.putObject("selection"), record.selection());
        n.put("startedAt", record.startedAt().toString());
        n.put("finishedAt", record.finishedAt().map(Object::toString).orElse(null));
        n.put("interrupted", record.interrupted());
        return n;
    }

    /**
     * Where the run happened. The run record does not carry the run host's operating system and JDK, so these are
     * the bundling host's, and the document says so: make the bundle on the machine that ran the suite.
     */
    static ObjectNode environment(final RunRecord record, final Map<String, String> system, final JsonNode profile) {
        final ObjectNode n = header("environment");
        n.put("recordedBy", "metaroce bundle create, on the host that made the bundle");
        final ObjectNode os = n.putObject("os");
        os.put("name", system.getOrDefault("os.name", "unknown"));
        os.put("version", system.getOrDefault("os.version", "unknown"));
        os.put("arch", system.getOrDefault("os.arch", "unknown"));
        final ObjectNode jdk = n.putObject("jdk");
        jdk.put("vendor", system.getOrDefault("java.vendor", "unknown"));
        jdk.put("version", system.getOrDefault("java.runtime.version", system.getOrDefault("java.version", "unknown")));
        jdk.put("vm", system.getOrDefault("java.vm.name", "unknown"));
        n.put("link", record.dut().link());
        n.put("testerInterface", testerInterface(record.dut(), profile));
        return n;
    }

    /**
     * The test vectors the run replayed: one entry per vector result among its cases ({@code vector:<id>}), with its
     * verdict and the SHA-256 of its bytes as they ran, from the report's {@code vectors} (and each file's, as in
     * {@code MANIFEST.sha256}). Only a report written before the suite recorded vector hashes leaves {@code sha256}
     * null, and the note then says this file cannot pin their bytes.
     */
    static ObjectNode vectors(final RunRecord record) {
        final ObjectNode n = header("vectors");
        final ArrayNode list = n.putArray("vectors");
        final Map<String, VectorDigest> digests = new TreeMap<>();
        record.vectors().forEach(d -> digests.put(d.id(), d));
        boolean unpinned = false;
        for (final var c : record.cases()) {
            if (c.caseId().startsWith(CoverageCheck.VECTOR_PREFIX)) {
                final String id = c.caseId().substring(CoverageCheck.VECTOR_PREFIX.length());
                final ObjectNode v = list.addObject();
                v.put("id", id);
                v.put("verdict", c.verdict().name());
                final VectorDigest digest = digests.get(id);
                if (digest == null) {
                    v.putNull("sha256");
                    unpinned = true;
                } else {
                    v.put("sha256", digest.sha256());
                    digest.files().forEach(v.putObject("files")::put);
                }
            }
        }
        final String note;
        if (list.isEmpty()) {
            note = "The run replayed no test vectors.";
        } else if (unpinned) {
            note = "The vectors the run replayed, from its case results; report.json does not record the SHA-256 of"
                    + " those whose sha256 is null (a vector that could not be read, or a report older than the"
                    + " field), so this file cannot pin their bytes.";
        } else {
            note = "The vectors the run replayed, each with the SHA-256 of its bytes as it ran (its lines of"
                    + " test-vectors/MANIFEST.sha256, and their hash), from report.json.";
        }
        n.put("note", note);
        return n;
    }

    /** Pretty JSON text ending in a newline. */
    static String text(final JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of strings always serialises", e);
        }
    }

    /**
     * The tester's interface as far as the run tells it: an interface the run recorded, else the raw-Ethernet
     * interface of the device declaration the run named, else what the link implies (with the tester's address for UDP).
     */
    static String testerInterface(final RunRecord.DutDescription dut, final JsonNode profile) {
        for (final String key : List.of("testerInterface", "interface")) {
            final String value = dut.parameters().get(key);
            if (value != null && !value.isBlank()) {
                return value;
            }
        }
        final String fromProfile =
                profile == null ? "" : profile.path("link").path("interface").asText("");
        if (!fromProfile.isBlank()) {
            return fromProfile;
        }
        final String tester = dut.parameters().getOrDefault("tester", "address not recorded");
        return switch (dut.link()) {
            case "embedded" -> "none: an in-memory link to the embedded reference";
            case "udp" -> "kernel UDP socket, tester at " + tester;
            case "raw-ethernet" -> "raw Ethernet; the run did not record the interface";
            default -> "not recorded (link " + dut.link() + ")";
        };
    }

    private static ObjectNode header(final String document) {
        final ObjectNode n = MAPPER.createObjectNode();
        n.put("format", FORMAT);
        n.put("formatVersion", FORMAT_VERSION);
        n.put("document", document);
        return n;
    }

    private static void strings(final ArrayNode array, final List<String> values) {
        values.forEach(array::add);
    }

    private static void sorted(final ObjectNode n, final Map<String, String> map) {
        new TreeMap<>(map).forEach(n::put);
    }
}
