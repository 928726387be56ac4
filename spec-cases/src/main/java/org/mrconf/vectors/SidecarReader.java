package org.mrconf.vectors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a {@code vector.json} strictly: a regular file of at most {@link #MAX_BYTES}, UTF-8, every field of the right
 * type and range, no unknown field (a typo must not silently weaken a vector). Every error names the file and the
 * field as a JSON path.
 */
public final class SidecarReader {
    /** Sidecars are small; anything larger is not one. */
    public static final long MAX_BYTES = 1 << 20;

    static final Set<String> KINDS = Set.of("valid", "invalid", "inopportune");
    static final Set<String> PACING = Set.of("fast", "recorded");
    static final Set<String> ACCESS = Set.of("LOCAL_WRITE", "REMOTE_WRITE", "REMOTE_READ");
    static final Set<String> OPCODES =
            Set.of("WRITE", "WRITE_WITH_IMMEDIATE", "SEND", "READ_REQUEST", "READ_RESPONSE", "ACK", "NACK", "PROBE");
    private static final Pattern CLAUSE = Pattern.compile("[0-9]{1,2}\\.[0-9]{1,2}\\.[0-9]{1,2}");
    private static final Pattern HEX = Pattern.compile("([0-9a-f]{2})*");
    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern U64 = Pattern.compile("0x[0-9a-fA-F]{1,16}");

    private final ObjectMapper mapper = new ObjectMapper();

    /** Reads and checks {@code file}. */
    public Sidecar read(final Path file) throws VectorException {
        final JsonNode root = parse(file);
        final Fields f = new Fields(file);
        f.only(
                root,
                "$",
                "$schema",
                "id",
                "specVersion",
                "clauses",
                "kind",
                "purpose",
                "profiles",
                "setup",
                "placeholders",
                "pacing",
                "expect");
        final List<String> clauses = new ArrayList<>();
        for (final JsonNode clause : f.array(root, "$", "clauses", true)) {
            clauses.add(f.matching(clause, "$.clauses[]", CLAUSE, "a clause id such as 7.1.1"));
        }
        if (clauses.isEmpty()) {
            throw new VectorException(file, "$.clauses", "must name at least one clause");
        }
        final List<String> profiles = new ArrayList<>();
        for (final JsonNode profile : f.array(root, "$", "profiles", false)) {
            profiles.add(f.text(profile, "$.profiles[]"));
        }
        return new Sidecar(
                f.string(root, "$", "id"),
                f.string(root, "$", "specVersion"),
                List.copyOf(clauses),
                f.oneOf(root, "$", "kind", KINDS),
                f.string(root, "$", "purpose"),
                List.copyOf(profiles),
                setup(f, f.object(root, "$", "setup")),
                placeholders(f, f.object(root, "$", "placeholders")),
                root.has("pacing") ? f.oneOf(root, "$", "pacing", PACING) : "fast",
                expect(f, f.object(root, "$", "expect")));
    }

    private JsonNode parse(final Path file) throws VectorException {
        try {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                throw new VectorException(file, "", "is not a regular file");
            }
            if (Files.size(file) > MAX_BYTES) {
                throw new VectorException(file, "", "is larger than " + MAX_BYTES + " bytes: not a vector sidecar");
            }
            final String text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(Files.readAllBytes(file)))
                    .toString();
            final JsonNode root = mapper.readTree(text);
            if (root == null || !root.isObject()) {
                throw new VectorException(file, "$", "must be a JSON object");
            }
            return root;
        } catch (final CharacterCodingException e) {
            throw new VectorException(file, "", "is not UTF-8 text");
        } catch (final JsonProcessingException e) {
            throw new VectorException(
                    file, "", "is not valid JSON: " + e.getOriginalMessage() + " at " + e.getLocation());
        } catch (final IOException e) {
            throw new VectorException(file, "", "cannot be read: " + e.getMessage(), e);
        }
    }

    private static Sidecar.Setup setup(final Fields f, final JsonNode setup) throws VectorException {
        f.only(setup, "$.setup", "paths", "streams", "initialPsn", "regions", "receives");
        final List<Sidecar.Region> regions = new ArrayList<>();
        int index = 0;
        for (final JsonNode region : f.array(setup, "$.setup", "regions", false)) {
            final String at = "$.setup.regions[" + index++ + "]";
            f.only(region, at, "name", "length", "access", "fill");
            final List<String> access = new ArrayList<>();
            for (final JsonNode flag : f.array(region, at, "access", true)) {
                access.add(f.oneOfText(flag, at + ".access[]", ACCESS));
            }
            regions.add(new Sidecar.Region(
                    f.string(region, at, "name"),
                    f.integer(region, at, "length", 1, 1 << 26),
                    List.copyOf(access),
                    region.has("fill") ? (int) f.integer(region, at, "fill", 0, 255) : 0));
        }
        final List<Sidecar.Receive> receives = new ArrayList<>();
        index = 0;
        for (final JsonNode receive : f.array(setup, "$.setup", "receives", false)) {
            final String at = "$.setup.receives[" + index++ + "]";
            f.only(receive, at, "stream", "region", "offset", "length", "wrId");
            receives.add(new Sidecar.Receive(
                    (int) f.integer(receive, at, "stream", 0, 65_535),
                    f.string(receive, at, "region"),
                    f.integer(receive, at, "offset", 0, 1 << 26),
                    f.integer(receive, at, "length", 0, 1 << 26),
                    f.integer(receive, at, "wrId", 0, Long.MAX_VALUE)));
        }
        return new Sidecar.Setup(
                (int) f.integer(setup, "$.setup", "paths", 1, 256),
                (int) f.integer(setup, "$.setup", "streams", 1, 65_536),
                setup.has("initialPsn") ? f.integer(setup, "$.setup", "initialPsn", 0, 0xFFFF_FFFFL) : 0,
                List.copyOf(regions),
                List.copyOf(receives));
    }

    private static Sidecar.Placeholders placeholders(final Fields f, final JsonNode node) throws VectorException {
        f.only(node, "$.placeholders", "connection", "psnBase", "regions");
        final Map<String, Sidecar.RegionPlaceholder> regions = new LinkedHashMap<>();
        final JsonNode byName = node.has("regions") ? f.object(node, "$.placeholders", "regions") : null;
        if (byName != null) {
            for (final Iterator<Map.Entry<String, JsonNode>> it = byName.fields(); it.hasNext(); ) {
                final Map.Entry<String, JsonNode> entry = it.next();
                final String at = "$.placeholders.regions." + entry.getKey();
                f.only(entry.getValue(), at, "address", "key");
                regions.put(
                        entry.getKey(),
                        new Sidecar.RegionPlaceholder(
                                f.u64(entry.getValue(), at, "address"), f.u64(entry.getValue(), at, "key")));
            }
        }
        return new Sidecar.Placeholders(
                f.u64(node, "$.placeholders", "connection"),
                f.integer(node, "$.placeholders", "psnBase", 0, 0xFFFF_FFFFL),
                Map.copyOf(regions));
    }

    private static Sidecar.Expect expect(final Fields f, final JsonNode node) throws VectorException {
        f.only(node, "$.expect", "regions", "completions", "noOtherCompletions", "counters", "responses", "never");
        final List<Sidecar.RegionContent> regions = new ArrayList<>();
        int index = 0;
        for (final JsonNode region : f.array(node, "$.expect", "regions", false)) {
            final String at = "$.expect.regions[" + index++ + "]";
            f.only(region, at, "region", "offset", "length", "hex", "sha256");
            final Optional<String> hex = region.has("hex")
                    ? Optional.of(f.matching(region.get("hex"), at + ".hex", HEX, "lower-case hex bytes"))
                    : Optional.empty();
            final Optional<String> sha = region.has("sha256")
                    ? Optional.of(f.matching(region.get("sha256"), at + ".sha256", SHA256, "64 lower-case hex digits"))
                    : Optional.empty();
            if (hex.isEmpty() == sha.isEmpty()) {
                throw new VectorException(f.file, at, "give exactly one of hex and sha256");
            }
            final int length = (int) f.integer(region, at, "length", 0, 1 << 26);
            if (hex.isPresent() && hex.get().length() != 2L * length) {
                throw new VectorException(
                        f.file, at + ".hex", "holds " + hex.get().length() / 2 + " bytes, length is " + length);
            }
            regions.add(new Sidecar.RegionContent(
                    f.string(region, at, "region"), f.integer(region, at, "offset", 0, 1 << 26), length, hex, sha));
        }
        final List<Sidecar.CompletionExpectation> completions = new ArrayList<>();
        index = 0;
        for (final JsonNode completion : f.array(node, "$.expect", "completions", false)) {
            final String at = "$.expect.completions[" + index++ + "]";
            f.only(completion, at, "wrId", "status", "type", "immediate");
            completions.add(new Sidecar.CompletionExpectation(
                    f.integer(completion, at, "wrId", 0, Long.MAX_VALUE),
                    f.string(completion, at, "status"),
                    completion.has("type") ? Optional.of(f.string(completion, at, "type")) : Optional.empty(),
                    completion.has("immediate")
                            ? OptionalLong.of(f.integer(completion, at, "immediate", 0, 0xFFFF_FFFFL))
                            : OptionalLong.empty()));
        }
        final List<Sidecar.CounterExpectation> counters = new ArrayList<>();
        index = 0;
        for (final JsonNode counter : f.array(node, "$.expect", "counters", false)) {
            final String at = "$.expect.counters[" + index++ + "]";
            f.only(counter, at, "name", "delta", "atLeast");
            final OptionalLong delta = counter.has("delta")
                    ? OptionalLong.of(f.integer(counter, at, "delta", 0, Long.MAX_VALUE))
                    : OptionalLong.empty();
            final OptionalLong atLeast = counter.has("atLeast")
                    ? OptionalLong.of(f.integer(counter, at, "atLeast", 0, Long.MAX_VALUE))
                    : OptionalLong.empty();
            if (delta.isPresent() == atLeast.isPresent()) {
                throw new VectorException(f.file, at, "give exactly one of delta and atLeast");
            }
            counters.add(new Sidecar.CounterExpectation(f.string(counter, at, "name"), delta, atLeast));
        }
        final Sidecar.Expect expect = new Sidecar.Expect(
                List.copyOf(regions),
                List.copyOf(completions),
                node.has("noOtherCompletions") && f.bool(node, "$.expect", "noOtherCompletions"),
                List.copyOf(counters),
                responses(f, node, "responses"),
                responses(f, node, "never"));
        if (expect.regions().isEmpty()
                && expect.completions().isEmpty()
                && !expect.noOtherCompletions()
                && expect.counters().isEmpty()
                && expect.responses().isEmpty()
                && expect.never().isEmpty()) {
            // A vector that expects nothing passes against anything: a defect, not a vector.
            throw new VectorException(f.file, "$.expect", "expects nothing; give at least one expectation");
        }
        return expect;
    }

    private static List<Sidecar.ResponseExpectation> responses(final Fields f, final JsonNode node, final String name)
            throws VectorException {
        final List<Sidecar.ResponseExpectation> out = new ArrayList<>();
        int index = 0;
        for (final JsonNode response : f.array(node, "$.expect", name, false)) {
            final String at = "$.expect." + name + "[" + index++ + "]";
            f.only(response, at, "opcode", "path", "cumulativePsnOffset", "nackCode", "atLeast");
            out.add(new Sidecar.ResponseExpectation(
                    f.oneOf(response, at, "opcode", OPCODES),
                    response.has("path")
                            ? OptionalLong.of(f.integer(response, at, "path", 0, 255))
                            : OptionalLong.empty(),
                    response.has("cumulativePsnOffset")
                            ? OptionalLong.of(f.integer(response, at, "cumulativePsnOffset", 0, 0xFFFF_FFFFL))
                            : OptionalLong.empty(),
                    response.has("nackCode") ? Optional.of(f.string(response, at, "nackCode")) : Optional.empty(),
                    response.has("atLeast") ? (int) f.integer(response, at, "atLeast", 1, 1_000_000) : 1));
        }
        return List.copyOf(out);
    }

    /** Typed field access that names the file and the JSON path of whatever is wrong. */
    private static final class Fields {
        final Path file;

        Fields(final Path file) {
            this.file = file;
        }

        void only(final JsonNode node, final String at, final String... allowed) throws VectorException {
            if (!node.isObject()) {
                throw new VectorException(file, at, "must be an object");
            }
            final Set<String> names = Set.of(allowed);
            for (final Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                final String name = it.next();
                if (!names.contains(name)) {
                    throw new VectorException(
                            file,
                            at + "." + name,
                            "is not a field of a vector sidecar (known: " + String.join(", ", allowed) + ")");
                }
            }
        }

        JsonNode object(final JsonNode node, final String at, final String name) throws VectorException {
            final JsonNode value = node.get(name);
            if (value == null || !value.isObject()) {
                throw new VectorException(file, at + "." + name, value == null ? "is missing" : "must be an object");
            }
            return value;
        }

        List<JsonNode> array(final JsonNode node, final String at, final String name, final boolean required)
                throws VectorException {
            final JsonNode value = node.get(name);
            if (value == null) {
                if (required) {
                    throw new VectorException(file, at + "." + name, "is missing");
                }
                return List.of();
            }
            if (!value.isArray()) {
                throw new VectorException(file, at + "." + name, "must be an array");
            }
            final List<JsonNode> out = new ArrayList<>();
            value.forEach(out::add);
            return out;
        }

        String string(final JsonNode node, final String at, final String name) throws VectorException {
            final JsonNode value = node.get(name);
            if (value == null) {
                throw new VectorException(file, at + "." + name, "is missing");
            }
            return text(value, at + "." + name);
        }

        String text(final JsonNode value, final String at) throws VectorException {
            if (!value.isTextual() || value.asText().isBlank()) {
                throw new VectorException(file, at, "must be a non-empty string");
            }
            return value.asText();
        }

        String oneOf(final JsonNode node, final String at, final String name, final Set<String> allowed)
                throws VectorException {
            final JsonNode value = node.get(name);
            if (value == null) {
                throw new VectorException(file, at + "." + name, "is missing");
            }
            return oneOfText(value, at + "." + name, allowed);
        }

        String oneOfText(final JsonNode value, final String at, final Set<String> allowed) throws VectorException {
            final String text = text(value, at);
            if (!allowed.contains(text)) {
                throw new VectorException(
                        file, at, "is '" + text + "'; must be one of " + new java.util.TreeSet<>(allowed));
            }
            return text;
        }

        String matching(final JsonNode value, final String at, final Pattern pattern, final String what)
                throws VectorException {
            final String text = text(value, at);
            if (!pattern.matcher(text).matches()) {
                throw new VectorException(file, at, "is '" + text + "'; must be " + what);
            }
            return text;
        }

        long integer(final JsonNode node, final String at, final String name, final long min, final long max)
                throws VectorException {
            final JsonNode value = node.get(name);
            if (value == null) {
                throw new VectorException(file, at + "." + name, "is missing");
            }
            if (!value.isIntegralNumber() || !value.canConvertToLong()) {
                throw new VectorException(file, at + "." + name, "must be a whole number");
            }
            final long v = value.asLong();
            if (v < min || v > max) {
                throw new VectorException(file, at + "." + name, "is " + v + "; must be " + min + " to " + max);
            }
            return v;
        }

        long u64(final JsonNode node, final String at, final String name) throws VectorException {
            final JsonNode value = node.get(name);
            if (value == null) {
                throw new VectorException(file, at + "." + name, "is missing");
            }
            final String text = text(value, at + "." + name);
            if (!U64.matcher(text).matches()) {
                throw new VectorException(file, at + "." + name, "is '" + text + "'; must be hex such as 0x70000000");
            }
            return Long.parseUnsignedLong(text.substring(2), 16);
        }

        boolean bool(final JsonNode node, final String at, final String name) throws VectorException {
            final JsonNode value = node.get(name);
            if (!value.isBoolean()) {
                throw new VectorException(file, at + "." + name, "must be true or false");
            }
            return value.asBoolean();
        }
    }
}
