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
    static final Set<String> CHECKSUMS = Set.of("zero", "wrong");
    static final Set<String> ACCESS = Set.of("LOCAL_WRITE", "REMOTE_WRITE", "REMOTE_READ");
    static final Set<String> NACK_CODES = Set.of(
            "REMOTE_ACCESS",
            "BOUNDS",
            "RECEIVER_NOT_READY",
            "MESSAGE_TOO_LONG",
            "INVALID_REQUEST",
            "UNKNOWN_CONNECTION",
            "PSN_OUT_OF_WINDOW");
    static final Set<String> POST_OPS = Set.of("WRITE", "WRITE_WITH_IMMEDIATE", "SEND", "READ");
    private static final Set<String> LINK_FIELDS =
            Set.of(Sidecar.SOURCE_PORT, Sidecar.ECN, Sidecar.SOURCE_ADDRESS, Sidecar.IP_FAMILY);
    private static final Set<String> CONTROL_OPS =
            Set.of(Sidecar.Control.INVALIDATE_REGION, Sidecar.Control.DESTROY_CONNECTION);
    static final Set<String> AWAIT_OPCODES =
            Set.of("WRITE", "WRITE_WITH_IMMEDIATE", "SEND", "READ_REQUEST", "READ_RESPONSE");
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
                "unclaimedProfiles",
                "setup",
                "placeholders",
                "pacing",
                "asCaptured",
                "udpChecksums",
                "expect",
                "steps");
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
        final List<String> unclaimed = new ArrayList<>();
        for (final JsonNode profile : f.array(root, "$", "unclaimedProfiles", false)) {
            final String name = f.text(profile, "$.unclaimedProfiles[]");
            if (profiles.contains(name) || name.equals("core")) {
                throw new VectorException(
                        file, "$.unclaimedProfiles", "names '" + name + "', which a device running it must claim");
            }
            unclaimed.add(name);
        }
        final Sidecar.Setup setup = setup(f, f.object(root, "$", "setup"));
        final Sidecar.Placeholders placeholders = placeholders(f, f.object(root, "$", "placeholders"));
        final List<Sidecar.Step> steps = steps(f, root);
        checkNames(f, setup, placeholders, steps);
        final Set<String> asCaptured = asCaptured(f, root);
        final Sidecar.Expect expect = expect(f, f.object(root, "$", "expect"));
        if (!profiles.contains("congestion")
                && steps.stream()
                        .anyMatch(s -> s instanceof Sidecar.Check c
                                && c.rateWithinHintMs().isPresent())) {
            throw new VectorException(
                    f.file, "$.profiles", "must name congestion: rateWithinHint judges clause 10.1.4 of that profile");
        }
        if (expect.placedWhenAcknowledged() && !steps.isEmpty()) {
            throw new VectorException(
                    f.file,
                    "$.expect.placedWhenAcknowledged",
                    "applies to a vector without steps only: replay judges it after each frame of the whole stimulus");
        }
        return new Sidecar(
                f.string(root, "$", "id"),
                f.string(root, "$", "specVersion"),
                List.copyOf(clauses),
                f.oneOf(root, "$", "kind", KINDS),
                f.string(root, "$", "purpose"),
                List.copyOf(profiles),
                List.copyOf(unclaimed),
                setup,
                placeholders,
                root.has("pacing") ? f.oneOf(root, "$", "pacing", PACING) : "fast",
                asCaptured,
                udpChecksums(f, root, asCaptured),
                expect,
                steps);
    }

    /**
     * The frames sent with a deliberate UDP checksum: each named once, {@code zero} or {@code wrong}. A frame from the
     * link's other address cannot be one: only the tester's own address builds whole frames.
     */
    private static Map<Integer, org.mrconf.pcap.ChecksumMode> udpChecksums(
            final Fields f, final JsonNode root, final Set<String> asCaptured) throws VectorException {
        final Map<Integer, org.mrconf.pcap.ChecksumMode> checksums = new java.util.TreeMap<>();
        int index = 0;
        for (final JsonNode entry : f.array(root, "$", "udpChecksums", false)) {
            final String at = "$.udpChecksums[" + index++ + "]";
            f.only(entry, at, "frame", "checksum");
            final int frame = (int) f.integer(entry, at, "frame", 0, Integer.MAX_VALUE);
            final org.mrconf.pcap.ChecksumMode mode = "zero".equals(f.oneOf(entry, at, "checksum", CHECKSUMS))
                    ? org.mrconf.pcap.ChecksumMode.ZERO
                    : org.mrconf.pcap.ChecksumMode.CORRUPT;
            if (checksums.put(frame, mode) != null) {
                throw new VectorException(f.file, at + ".frame", "names frame " + frame + " twice");
            }
        }
        if (!checksums.isEmpty() && asCaptured.contains(Sidecar.SOURCE_ADDRESS)) {
            throw new VectorException(
                    f.file,
                    "$.udpChecksums",
                    "cannot be combined with asCaptured sourceAddress: only frames from the tester's own address are"
                            + " built whole");
        }
        return java.util.Collections.unmodifiableMap(checksums);
    }

    /** The link-level fields replayed as captured: each named once, from {@link #LINK_FIELDS}. */
    private static Set<String> asCaptured(final Fields f, final JsonNode root) throws VectorException {
        final Set<String> fields = new java.util.LinkedHashSet<>();
        int index = 0;
        for (final JsonNode field : f.array(root, "$", "asCaptured", false)) {
            final String at = "$.asCaptured[" + index++ + "]";
            final String name = f.oneOfText(field, at, LINK_FIELDS);
            if (!fields.add(name)) {
                throw new VectorException(f.file, at, "names " + name + " twice");
            }
        }
        return java.util.Collections.unmodifiableSet(fields);
    }

    private static List<Sidecar.Step> steps(final Fields f, final JsonNode root) throws VectorException {
        final List<Sidecar.Step> steps = new ArrayList<>();
        int index = 0;
        for (final JsonNode step : f.array(root, "$", "steps", false)) {
            final String at = "$.steps[" + index++ + "]";
            f.only(step, at, "post", "await", "send", "check", "acks", "nack", "control");
            if (step.size() != 1) {
                throw new VectorException(
                        f.file, at, "must hold exactly one of post, await, send, check, acks, nack and control");
            }
            final String name = step.fieldNames().next();
            final JsonNode body = f.object(step, at, name);
            final String bodyAt = at + "." + name;
            final Sidecar.Step parsed = switch (name) {
                case "post" -> post(f, body, bodyAt);
                case "await" -> await(f, body, bodyAt);
                case "send" -> send(f, body, bodyAt);
                case "acks" -> acks(f, body, bodyAt);
                case "nack" -> nack(f, body, bodyAt);
                case "control" -> control(f, body, bodyAt);
                default -> check(f, body, bodyAt);
            };
            if (parsed instanceof Sidecar.Check check
                    && check.rateWithinHintMs().isPresent()
                    && steps.stream()
                            .noneMatch(s -> s instanceof Sidecar.Acks a
                                    && a.rateHintMbps().isPresent())) {
                throw new VectorException(
                        f.file, bodyAt + ".rateWithinHint", "needs an earlier acks step that gives the rateHint");
            }
            steps.add(parsed);
        }
        return List.copyOf(steps);
    }

    private static Sidecar.Post post(final Fields f, final JsonNode node, final String at) throws VectorException {
        f.only(
                node,
                at,
                "op",
                "stream",
                "wrId",
                "region",
                "offset",
                "length",
                "remoteAddress",
                "remoteKey",
                "immediate");
        final String op = f.oneOf(node, at, "op", POST_OPS);
        if (node.has("immediate") != "WRITE_WITH_IMMEDIATE".equals(op)) {
            throw new VectorException(f.file, at + ".immediate", "is given exactly when op is WRITE_WITH_IMMEDIATE");
        }
        final boolean remote = !"SEND".equals(op);
        if (!remote && (node.has("remoteAddress") || node.has("remoteKey"))) {
            throw new VectorException(f.file, at, "a SEND names no remote address or key");
        }
        return new Sidecar.Post(
                op,
                (int) f.integer(node, at, "stream", 0, 65_535),
                f.integer(node, at, "wrId", 0, (1L << 53) - 1),
                f.string(node, at, "region"),
                f.integer(node, at, "offset", 0, 1 << 26),
                f.integer(node, at, "length", 0, 1 << 26),
                remote ? f.u64(node, at, "remoteAddress") : 0,
                remote ? f.u32(node, at, "remoteKey") : 0,
                node.has("immediate")
                        ? OptionalLong.of(f.integer(node, at, "immediate", 0, 0xFFFF_FFFFL))
                        : OptionalLong.empty());
    }

    private static Sidecar.Await await(final Fields f, final JsonNode node, final String at) throws VectorException {
        f.only(
                node,
                at,
                "opcode",
                "stream",
                "as",
                "msn",
                "messageLength",
                "remoteAddress",
                "remoteKey",
                "immediate",
                "rsn",
                "sinkHandle",
                "payloadHex",
                "payloadSha256",
                "reservedZero",
                "fullSegments");
        final String opcode = f.oneOf(node, at, "opcode", AWAIT_OPCODES);
        if (node.has("payloadHex") && node.has("payloadSha256")) {
            throw new VectorException(f.file, at, "give at most one of payloadHex and payloadSha256");
        }
        return new Sidecar.Await(
                opcode,
                (int) f.integer(node, at, "stream", 0, 65_535),
                node.has("as") ? Optional.of(f.string(node, at, "as")) : Optional.empty(),
                optional(f, node, at, "msn", 0xFFFF_FFFFL),
                optional(f, node, at, "messageLength", 0xFFFF_FFFFL),
                node.has("remoteAddress") ? OptionalLong.of(f.u64(node, at, "remoteAddress")) : OptionalLong.empty(),
                node.has("remoteKey") ? OptionalLong.of(f.u32(node, at, "remoteKey")) : OptionalLong.empty(),
                optional(f, node, at, "immediate", 0xFFFF_FFFFL),
                optional(f, node, at, "rsn", 0xFFFF_FFFFL),
                node.has("sinkHandle") ? OptionalLong.of(f.u32(node, at, "sinkHandle")) : OptionalLong.empty(),
                node.has("payloadHex")
                        ? Optional.of(
                                f.matching(node.get("payloadHex"), at + ".payloadHex", HEX, "lower-case hex bytes"))
                        : Optional.empty(),
                node.has("payloadSha256")
                        ? Optional.of(f.matching(
                                node.get("payloadSha256"), at + ".payloadSha256", SHA256, "64 lower-case hex digits"))
                        : Optional.empty(),
                node.has("reservedZero") && f.bool(node, at, "reservedZero"),
                node.has("fullSegments") && f.bool(node, at, "fullSegments"));
    }

    private static Sidecar.Send send(final Fields f, final JsonNode node, final String at) throws VectorException {
        f.only(node, at, "frames");
        final List<Integer> frames = new ArrayList<>();
        for (final JsonNode frame : f.array(node, at, "frames", true)) {
            if (!frame.isIntegralNumber() || frame.asLong() < 0 || frame.asLong() > 1_000_000) {
                throw new VectorException(f.file, at + ".frames[]", "must be frame indexes from 0");
            }
            frames.add(frame.asInt());
        }
        if (frames.isEmpty()) {
            throw new VectorException(f.file, at + ".frames", "must name at least one frame");
        }
        return new Sidecar.Send(List.copyOf(frames));
    }

    private static Sidecar.Acks acks(final Fields f, final JsonNode node, final String at) throws VectorException {
        f.only(
                node,
                at,
                "hold",
                "loseFirst",
                "rateHint",
                "echoAge",
                "lose",
                "describe",
                "ceCount",
                "silentPaths",
                "waitMs");
        if (!node.has("hold")) {
            throw new VectorException(f.file, at + ".hold", "is missing");
        }
        final OptionalLong hint = optional(f, node, at, "rateHint", 0xFFFF_FFFFL);
        if (hint.isPresent() && hint.getAsLong() == 0) {
            throw new VectorException(f.file, at + ".rateHint", "is in Mbit/s and at least 1 (clause 8.2.3)");
        }
        // An echo at most 4 s old: timestamps are nanoseconds modulo 2^32 (about 4.29 s), so an older one would wrap.
        final OptionalLong echoAge = optional(f, node, at, "echoAge", 4_000);
        final List<Long> lose = new ArrayList<>();
        for (final JsonNode offset : f.array(node, at, "lose", false)) {
            if (!offset.isIntegralNumber() || offset.asLong() < 0 || offset.asLong() > 255) {
                throw new VectorException(
                        f.file, at + ".lose[]", "must be PSN offsets from each path's next new PSN, 0 to 255");
            }
            if (lose.contains(offset.asLong())) {
                throw new VectorException(f.file, at + ".lose", "names offset " + offset.asLong() + " twice");
            }
            lose.add(offset.asLong());
        }
        final List<Integer> silentPaths = new ArrayList<>();
        for (final JsonNode path : f.array(node, at, "silentPaths", false)) {
            if (!path.isIntegralNumber() || path.asLong() < 0 || path.asLong() > 255) {
                throw new VectorException(f.file, at + ".silentPaths[]", "must be path ids, 0 to 255");
            }
            if (silentPaths.contains(path.asInt())) {
                throw new VectorException(f.file, at + ".silentPaths", "names path " + path.asInt() + " twice");
            }
            silentPaths.add(path.asInt());
        }
        final boolean hold = f.bool(node, at, "hold");
        final boolean describe = node.has("describe") && f.bool(node, at, "describe");
        if (describe && !hold) {
            throw new VectorException(
                    f.file, at + ".describe", "is for a hold (hold true): without one every ACK describes all anyway");
        }
        return new Sidecar.Acks(
                hold,
                node.has("loseFirst") && f.bool(node, at, "loseFirst"),
                hint,
                echoAge,
                List.copyOf(lose),
                describe,
                // The CE count field is 16 bits wide (Table 5-9).
                optional(f, node, at, "ceCount", 0xFFFF),
                List.copyOf(silentPaths),
                // A wait of up to 10 s: a round trip, not a timeout (the hold limit judges those).
                optional(f, node, at, "waitMs", 10_000));
    }

    private static Sidecar.Nack nack(final Fields f, final JsonNode node, final String at) throws VectorException {
        f.only(node, at, "of", "code", "stream", "msn", "retryAfter");
        final String code = f.oneOf(node, at, "code", NACK_CODES);
        // At most 10 s, so that the wait fits any replay; at least 1 us, as clause 9.1.9 requires.
        final OptionalLong retryAfter = node.has("retryAfter")
                ? OptionalLong.of(f.integer(node, at, "retryAfter", 1, 10_000_000))
                : OptionalLong.empty();
        if (retryAfter.isPresent() && !code.equals("RECEIVER_NOT_READY")) {
            throw new VectorException(
                    f.file,
                    at + ".retryAfter",
                    "is for a NACK RECEIVER_NOT_READY only (Table 5-10): every other code sends 0");
        }
        return new Sidecar.Nack(
                f.string(node, at, "of"),
                code,
                node.has("stream") ? OptionalLong.of(f.integer(node, at, "stream", 0, 0xFFFF)) : OptionalLong.empty(),
                node.has("msn") ? OptionalLong.of(f.integer(node, at, "msn", 0, 0xFFFF_FFFFL)) : OptionalLong.empty(),
                retryAfter);
    }

    private static Sidecar.Control control(final Fields f, final JsonNode node, final String at)
            throws VectorException {
        f.only(node, at, "op", "region");
        final String op = f.oneOf(node, at, "op", CONTROL_OPS);
        final Optional<String> region =
                node.has("region") ? Optional.of(f.string(node, at, "region")) : Optional.empty();
        if (op.equals(Sidecar.Control.INVALIDATE_REGION) != region.isPresent()) {
            throw new VectorException(
                    f.file,
                    at + ".region",
                    region.isPresent()
                            ? "is only for invalidate_region"
                            : "is missing: invalidate_region names the region");
        }
        return new Sidecar.Control(op, region);
    }

    private static Sidecar.Check check(final Fields f, final JsonNode node, final String at) throws VectorException {
        f.only(
                node,
                at,
                "regions",
                "completed",
                "notCompleted",
                "sendWindow",
                "resentOldest",
                "newSourcePort",
                "backoff",
                "everyPath",
                "failed",
                "rateWithinHint",
                "resentOnlyLost",
                "resentAfterRetry",
                "notResentFor",
                "pathWindow",
                "connectionWindow",
                "unhealthy",
                "avoided",
                "healed",
                "rtoFollowsEcho",
                "longHaulTimers",
                "noSpuriousResend");
        final List<Sidecar.RegionContent> regions = regionContents(f, node, at);
        final List<Long> completed = wrIds(f, node, at, "completed");
        final List<Long> notCompleted = wrIds(f, node, at, "notCompleted");
        final OptionalLong outstanding = optional(f, node, at, "sendWindow", 0xFFFF_FFFFL);
        final Sidecar.Check check = new Sidecar.Check(
                regions,
                completed,
                notCompleted,
                outstanding,
                node.has("resentOldest") && f.bool(node, at, "resentOldest"),
                node.has("newSourcePort") && f.bool(node, at, "newSourcePort"),
                node.has("backoff") && f.bool(node, at, "backoff"),
                node.has("everyPath") && f.bool(node, at, "everyPath"),
                wrIds(f, node, at, "failed"),
                optional(f, node, at, "rateWithinHint", 60_000),
                node.has("resentOnlyLost") && f.bool(node, at, "resentOnlyLost"),
                node.has("resentAfterRetry") && f.bool(node, at, "resentAfterRetry"),
                optional(f, node, at, "notResentFor", 10_000),
                node.has("pathWindow") && f.bool(node, at, "pathWindow"),
                node.has("connectionWindow") && f.bool(node, at, "connectionWindow"),
                node.has("unhealthy") && f.bool(node, at, "unhealthy"),
                node.has("avoided") && f.bool(node, at, "avoided"),
                node.has("healed") && f.bool(node, at, "healed"),
                node.has("rtoFollowsEcho") && f.bool(node, at, "rtoFollowsEcho"),
                node.has("longHaulTimers") && f.bool(node, at, "longHaulTimers"),
                node.has("noSpuriousResend") && f.bool(node, at, "noSpuriousResend"));
        if (!check.checksSomething()) {
            throw new VectorException(
                    f.file,
                    at,
                    "checks nothing; give regions, completed, notCompleted, sendWindow, resentOldest, everyPath,"
                            + " failed, rateWithinHint, resentOnlyLost, resentAfterRetry, notResentFor, pathWindow,"
                            + " connectionWindow, unhealthy, avoided, healed, rtoFollowsEcho, longHaulTimers or"
                            + " noSpuriousResend");
        }
        if (check.notResentForMs().isPresent() && check.notResentForMs().getAsLong() == 0) {
            throw new VectorException(f.file, at + ".notResentFor", "must be a watch of at least 1 ms");
        }
        if (check.rateWithinHintMs().isPresent() && check.rateWithinHintMs().getAsLong() == 0) {
            throw new VectorException(f.file, at + ".rateWithinHint", "must be an interval of at least 1 ms");
        }
        if ((check.newSourcePort() || check.backoff()) && !check.resentOldest()) {
            throw new VectorException(
                    f.file,
                    at + (check.newSourcePort() ? ".newSourcePort" : ".backoff"),
                    "judges the retransmissions resentOldest waits for: give both");
        }
        for (final Long wrId : completed) {
            if (notCompleted.contains(wrId) || check.failed().contains(wrId)) {
                throw new VectorException(
                        f.file,
                        at + (notCompleted.contains(wrId) ? ".notCompleted" : ".failed"),
                        "names work request " + wrId + ", which completed must name");
            }
        }
        return check;
    }

    private static List<Long> wrIds(final Fields f, final JsonNode node, final String at, final String name)
            throws VectorException {
        final List<Long> ids = new ArrayList<>();
        for (final JsonNode wrId : f.array(node, at, name, false)) {
            if (!wrId.isIntegralNumber() || wrId.asLong() < 0) {
                throw new VectorException(f.file, at + "." + name + "[]", "must be work request ids");
            }
            ids.add(wrId.asLong());
        }
        return List.copyOf(ids);
    }

    private static OptionalLong optional(
            final Fields f, final JsonNode node, final String at, final String name, final long max)
            throws VectorException {
        return node.has(name) ? OptionalLong.of(f.integer(node, at, name, 0, max)) : OptionalLong.empty();
    }

    /**
     * Every region a step names exists, every request placeholder is bound by an await of a READ_REQUEST, and no name
     * is bound twice: a typo must be an error, not a placeholder that is never rewritten.
     */
    private static void checkNames(
            final Fields f,
            final Sidecar.Setup setup,
            final Sidecar.Placeholders placeholders,
            final List<Sidecar.Step> steps)
            throws VectorException {
        final Set<String> regions = new java.util.HashSet<>();
        setup.regions().forEach(r -> regions.add(r.name()));
        final Set<String> bound = new java.util.HashSet<>();
        final Set<String> requests = new java.util.HashSet<>();
        for (int i = 0; i < steps.size(); i++) {
            final Sidecar.Step step = steps.get(i);
            if (step instanceof Sidecar.Post post && !regions.contains(post.region())) {
                throw new VectorException(
                        f.file, "$.steps[" + i + "].post.region", "names no region of $.setup.regions");
            }
            if (step instanceof Sidecar.Control control
                    && control.region().isPresent()
                    && !regions.contains(control.region().get())) {
                throw new VectorException(
                        f.file, "$.steps[" + i + "].control.region", "names no region of $.setup.regions");
            }
            if (step instanceof Sidecar.Check check) {
                for (final Sidecar.RegionContent content : check.regions()) {
                    if (!regions.contains(content.region())) {
                        throw new VectorException(
                                f.file, "$.steps[" + i + "].check.regions", "names no region: " + content.region());
                    }
                }
            }
            if (step instanceof Sidecar.Await await && await.as().isPresent()) {
                if (bound.contains(await.as().get())) {
                    throw new VectorException(f.file, "$.steps[" + i + "].await.as", "is bound twice");
                }
                bound.add(await.as().get());
                if ("READ_REQUEST".equals(await.opcode())) {
                    requests.add(await.as().get());
                }
            }
            if (step instanceof Sidecar.Nack nack && !bound.contains(nack.of())) {
                throw new VectorException(
                        f.file, "$.steps[" + i + "].nack.of", "names no message an earlier await bound (\"as\")");
            }
        }
        for (final String name : placeholders.requests().keySet()) {
            if (!requests.contains(name)) {
                throw new VectorException(
                        f.file,
                        "$.placeholders.requests." + name,
                        "is an unknown placeholder: no await step of a READ_REQUEST binds it (\"as\": \"" + name
                                + "\")");
            }
        }
        checkNothingAcknowledged(f, steps);
        checkLossAndNackWaits(f, steps);
        checkWindowsWhileHeld(f, steps);
        checkReleasedAfterHold(f, steps);
        checkPathHealthOrder(f, steps);
        if (setup.initialSendPsn() != 0 && steps.isEmpty()) {
            throw new VectorException(
                    f.file, "$.setup.initialSendPsn", "only matters when the DUT sends: give steps that post work");
        }
    }

    /**
     * The checks that judge the DUT's timers and spraying ({@link Sidecar.Check#needsNothingAcknowledged()}) come
     * while the tester has acknowledged nothing of the DUT's: its ACKs held back before the first post and neither
     * released nor replaced by a NACK since; after a {@code failed} check the connection is gone, and only send
     * and check steps may follow (what the DUT does with packets for a failed connection, clause 6.7.4).
     */
    private static void checkNothingAcknowledged(final Fields f, final List<Sidecar.Step> steps)
            throws VectorException {
        boolean posted = false;
        boolean silent = false;
        for (int i = 0; i < steps.size(); i++) {
            final Sidecar.Step step = steps.get(i);
            if (step instanceof Sidecar.Acks acks) {
                silent = acks.hold() && (silent || !posted);
            } else if (step instanceof Sidecar.Nack) {
                silent = false;
            } else if (step instanceof Sidecar.Post) {
                posted = true;
            } else if (step instanceof Sidecar.Check check && check.needsNothingAcknowledged()) {
                if (!silent) {
                    throw new VectorException(
                            f.file,
                            "$.steps[" + i + "].check",
                            "judges the DUT's timers or spraying, which needs a tester that has acknowledged nothing:"
                                    + " an acks step with hold true before the first post, and no acks or nack step"
                                    + " since");
                }
                if (!check.failed().isEmpty()) {
                    for (int j = i + 1; j < steps.size(); j++) {
                        if (!(steps.get(j) instanceof Sidecar.Send)
                                && !(steps.get(j) instanceof Sidecar.Check later
                                        && !later.needsNothingAcknowledged())) {
                            throw new VectorException(
                                    f.file,
                                    "$.steps[" + j + "]",
                                    "comes after the connection failed ($.steps[" + i + "].check.failed): only send"
                                            + " and check steps may follow");
                        }
                    }
                }
            }
        }
    }

    /**
     * A {@code pathWindow} or {@code connectionWindow} check counts packets in flight, which only a tester that holds
     * its ACKs back sees: the latest acks step before it holds, and a post comes between the hold and the check, so
     * that there is something to send. A {@code rtoFollowsEcho} check needs the same, after an acks step that gave an
     * {@code echoAge}.
     */
    private static void checkWindowsWhileHeld(final Fields f, final List<Sidecar.Step> steps) throws VectorException {
        boolean held = false;
        boolean posted = false;
        boolean echoing = false;
        for (int i = 0; i < steps.size(); i++) {
            final Sidecar.Step step = steps.get(i);
            if (step instanceof Sidecar.Check check && check.rtoFollowsEcho() && !(held && posted && echoing)) {
                throw new VectorException(
                        f.file,
                        "$.steps[" + i + "].check.rtoFollowsEcho",
                        "judges the RTO of a packet sent while the tester holds its ACKs back after old echoes,"
                                + " which needs an earlier acks step with an echoAge, then one that holds, and a post"
                                + " since");
            }
            if (step instanceof Sidecar.Acks acks) {
                echoing |= acks.echoAgeMs().orElse(0) > 0;
                held = acks.hold();
                posted &= held; // what was posted before the ACKs flowed again is acknowledged
            } else if (step instanceof Sidecar.Post) {
                posted |= held;
            } else if (step instanceof Sidecar.Check check
                    && (check.pathWindow() || check.connectionWindow())
                    && !(held && posted)) {
                throw new VectorException(
                        f.file,
                        "$.steps[" + i + "].check." + (check.pathWindow() ? "pathWindow" : "connectionWindow"),
                        "counts the packets the DUT has in flight, which needs an earlier post while the tester"
                                + " holds its ACKs back (the latest acks step has hold true)");
            }
        }
    }

    /**
     * A {@code noSpuriousResend} check judges the packets sent during a hold whose ACKs the latest acks step released:
     * an acks step holds, a post follows, and the latest acks step before the check releases (hold false).
     */
    private static void checkReleasedAfterHold(final Fields f, final List<Sidecar.Step> steps) throws VectorException {
        boolean held = false;
        boolean postedWhileHeld = false;
        boolean released = false;
        for (int i = 0; i < steps.size(); i++) {
            final Sidecar.Step step = steps.get(i);
            if (step instanceof Sidecar.Acks acks) {
                released = held && postedWhileHeld && !acks.hold();
                postedWhileHeld &= acks.hold();
                held = acks.hold();
            } else if (step instanceof Sidecar.Post) {
                postedWhileHeld |= held;
            } else if (step instanceof Sidecar.Check check && check.noSpuriousResend() && !released) {
                throw new VectorException(
                        f.file,
                        "$.steps[" + i + "].check.noSpuriousResend",
                        "judges the packets sent while the tester held its ACKs back, which needs an acks step with"
                                + " hold true, a post, then an acks step with hold false as the latest before it");
            }
        }
    }

    /**
     * The path-health checks need their silence: {@code unhealthy} comes while the latest acks step keeps paths silent,
     * after a post in that silence; {@code avoided} later in the same silence, after an {@code unhealthy} check and a
     * post since; {@code healed} after the acks step that ended a silence in which a path was shown unhealthy, that
     * step holding ACKs back, with a post since. A silence ends only at an acks step, so one must follow it.
     */
    private static void checkPathHealthOrder(final Fields f, final List<Sidecar.Step> steps) throws VectorException {
        int silence = -1;
        boolean posted = false;
        boolean unhealthy = false;
        boolean postedSinceUnhealthy = false;
        boolean healing = false;
        for (int i = 0; i < steps.size(); i++) {
            final Sidecar.Step step = steps.get(i);
            final String at = "$.steps[" + i + "].check.";
            if (step instanceof Sidecar.Acks acks) {
                healing = silence >= 0 && unhealthy && acks.hold();
                silence = acks.silentPaths().isEmpty() ? -1 : i;
                posted = false;
                unhealthy = false;
            } else if (step instanceof Sidecar.Post) {
                posted = true;
                postedSinceUnhealthy |= unhealthy;
            } else if (step instanceof Sidecar.Check check) {
                if (check.unhealthy() && (silence < 0 || !posted)) {
                    throw new VectorException(
                            f.file,
                            at + "unhealthy",
                            "waits for silent paths to turn unhealthy,"
                                    + " which needs a post while the latest acks step keeps paths silent (silentPaths)");
                }
                if (check.avoided() && (silence < 0 || !unhealthy || !postedSinceUnhealthy)) {
                    throw new VectorException(
                            f.file,
                            at + "avoided",
                            "judges the new PSNs after an unhealthy check"
                                    + " of the same silence, which needs that check and a post after it");
                }
                if (check.healed() && !(healing && posted)) {
                    throw new VectorException(
                            f.file,
                            at + "healed",
                            "judges the paths the latest acks step"
                                    + " acknowledged after a silence with an unhealthy check, which needs that step to hold"
                                    + " ACKs back and a post after it");
                }
                if (check.unhealthy()) {
                    unhealthy = true;
                    postedSinceUnhealthy = false;
                }
            }
        }
        if (silence >= 0) {
            throw new VectorException(
                    f.file,
                    "$.steps[" + silence + "].acks.silentPaths",
                    "keeps those paths silent until the next" + " acks step, and none follows");
        }
    }

    /**
     * The checks that judge what follows an earlier step come after it. A {@code resentOnlyLost} check judges what the
     * DUT resends after the describing ACKs of the latest acks step, so that step must describe (and hold), and no nack
     * step may come between: a NACK would tell the DUT more. A {@code resentAfterRetry} check needs the latest nack
     * step to give a retry-after, and a {@code notResentFor} check a latest nack step of PSN_OUT_OF_WINDOW with no acks
     * or post step since. The losses of a {@code lose} end only at the next acks step, so one must follow it.
     */
    private static void checkLossAndNackWaits(final Fields f, final List<Sidecar.Step> steps) throws VectorException {
        boolean described = false;
        boolean retrying = false;
        boolean outOfWindow = false;
        int losing = -1;
        for (int i = 0; i < steps.size(); i++) {
            final Sidecar.Step step = steps.get(i);
            if (step instanceof Sidecar.Nack nack) {
                retrying = nack.retryAfterUs().isPresent();
                outOfWindow = nack.code().equals("PSN_OUT_OF_WINDOW");
            }
            if (step instanceof Sidecar.Acks || step instanceof Sidecar.Post) {
                outOfWindow = false; // an ACK may move the window; a new post may fill it
            }
            if (step instanceof Sidecar.Check check && check.notResentForMs().isPresent() && !outOfWindow) {
                throw new VectorException(
                        f.file,
                        "$.steps[" + i + "].check.notResentFor",
                        "watches the PSN the latest nack step NACKed PSN_OUT_OF_WINDOW, with no acks or post step"
                                + " since, and there is none");
            }
            if (step instanceof Sidecar.Check check && check.resentAfterRetry() && !retrying) {
                throw new VectorException(
                        f.file,
                        "$.steps[" + i + "].check.resentAfterRetry",
                        "judges the retry of the PSN the latest nack step NACKed RECEIVER_NOT_READY with a"
                                + " retryAfter, and that nack step gives none");
            }
            if (step instanceof Sidecar.Acks acks) {
                described = acks.describe();
                losing = acks.lose().isEmpty() ? -1 : i;
            } else if (step instanceof Sidecar.Nack) {
                described = false;
            } else if (step instanceof Sidecar.Check check && check.resentOnlyLost() && !described) {
                throw new VectorException(
                        f.file,
                        "$.steps[" + i + "].check.resentOnlyLost",
                        "judges the resends after the ACKs of an acks step with describe true (and hold true), the"
                                + " latest acks step before it, with no nack step since");
            }
        }
        if (losing >= 0) {
            throw new VectorException(
                    f.file,
                    "$.steps[" + losing + "].acks.lose",
                    "loses those PSNs until the next acks step, and none follows");
        }
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
        f.only(
                setup,
                "$.setup",
                "paths",
                "streams",
                "initialPsn",
                "initialSendPsn",
                "peerMaxOutstandingMessages",
                "regions",
                "receives");
        final List<Sidecar.Region> regions = new ArrayList<>();
        int index = 0;
        for (final JsonNode region : f.array(setup, "$.setup", "regions", false)) {
            final String at = "$.setup.regions[" + index++ + "]";
            f.only(region, at, "name", "length", "access", "fill", "hex");
            final List<String> access = new ArrayList<>();
            for (final JsonNode flag : f.array(region, at, "access", true)) {
                access.add(f.oneOfText(flag, at + ".access[]", ACCESS));
            }
            final long length = f.integer(region, at, "length", 1, 1 << 26);
            final Optional<String> hex = region.has("hex")
                    ? Optional.of(f.matching(region.get("hex"), at + ".hex", HEX, "lower-case hex bytes"))
                    : Optional.empty();
            if (hex.isPresent() && hex.get().length() / 2 > length) {
                throw new VectorException(f.file, at + ".hex", "holds more bytes than the region's length " + length);
            }
            regions.add(new Sidecar.Region(
                    f.string(region, at, "name"),
                    length,
                    List.copyOf(access),
                    region.has("fill") ? (int) f.integer(region, at, "fill", 0, 255) : 0,
                    hex));
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
                setup.has("initialSendPsn") ? f.integer(setup, "$.setup", "initialSendPsn", 0, 0xFFFF_FFFFL) : 0,
                List.copyOf(regions),
                List.copyOf(receives),
                setup.has("peerMaxOutstandingMessages")
                        ? f.integer(setup, "$.setup", "peerMaxOutstandingMessages", 1, 1L << 31)
                        : 1L << 31);
    }

    private static Sidecar.Placeholders placeholders(final Fields f, final JsonNode node) throws VectorException {
        f.only(node, "$.placeholders", "connection", "psnBase", "regions", "requests");
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
        final Map<String, Sidecar.RequestPlaceholder> requests = new LinkedHashMap<>();
        final JsonNode requestsByName = node.has("requests") ? f.object(node, "$.placeholders", "requests") : null;
        if (requestsByName != null) {
            for (final Iterator<Map.Entry<String, JsonNode>> it = requestsByName.fields(); it.hasNext(); ) {
                final Map.Entry<String, JsonNode> entry = it.next();
                final String at = "$.placeholders.requests." + entry.getKey();
                f.only(entry.getValue(), at, "sinkHandle", "msn");
                requests.put(
                        entry.getKey(),
                        new Sidecar.RequestPlaceholder(
                                f.u32(entry.getValue(), at, "sinkHandle"),
                                f.integer(entry.getValue(), at, "msn", 0, 0xFFFF_FFFFL)));
            }
        }
        return new Sidecar.Placeholders(
                f.u64(node, "$.placeholders", "connection"),
                f.integer(node, "$.placeholders", "psnBase", 0, 0xFFFF_FFFFL),
                Map.copyOf(regions),
                Map.copyOf(requests));
    }

    private static Sidecar.Expect expect(final Fields f, final JsonNode node) throws VectorException {
        f.only(
                node,
                "$.expect",
                "regions",
                "completions",
                "noOtherCompletions",
                "counters",
                "responses",
                "never",
                "sentPsnsFromInitial",
                "retransmissionsFaithful",
                "completionsInOrder",
                "toTesterPort",
                "nacksFirst",
                "rateHintInEveryAck",
                "noCongestionSignals",
                "distinctSinkHandles",
                "sentUdpChecksums",
                "placedWhenAcknowledged",
                "ackCoalescing");
        final List<Sidecar.RegionContent> regions = regionContents(f, node, "$.expect");
        final List<Sidecar.CompletionExpectation> completions = new ArrayList<>();
        int index = 0;

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
                responses(f, node, "never"),
                node.has("sentPsnsFromInitial") && f.bool(node, "$.expect", "sentPsnsFromInitial"),
                node.has("retransmissionsFaithful") && f.bool(node, "$.expect", "retransmissionsFaithful"),
                node.has("completionsInOrder") && f.bool(node, "$.expect", "completionsInOrder"),
                node.has("toTesterPort") && f.bool(node, "$.expect", "toTesterPort"),
                node.has("nacksFirst") && f.bool(node, "$.expect", "nacksFirst"),
                node.has("rateHintInEveryAck") && f.bool(node, "$.expect", "rateHintInEveryAck"),
                node.has("noCongestionSignals") && f.bool(node, "$.expect", "noCongestionSignals"),
                node.has("distinctSinkHandles") && f.bool(node, "$.expect", "distinctSinkHandles"),
                node.has("sentUdpChecksums") && f.bool(node, "$.expect", "sentUdpChecksums"),
                node.has("placedWhenAcknowledged") && f.bool(node, "$.expect", "placedWhenAcknowledged"),
                node.has("ackCoalescing") && f.bool(node, "$.expect", "ackCoalescing"));
        if (expect.completionsInOrder() && expect.completions().size() < 2) {
            throw new VectorException(
                    f.file, "$.expect.completionsInOrder", "needs at least two completions to put in order");
        }
        if (expect.regions().isEmpty()
                && expect.completions().isEmpty()
                && !expect.noOtherCompletions()
                && expect.counters().isEmpty()
                && expect.responses().isEmpty()
                && expect.never().isEmpty()
                && !expect.sentPsnsFromInitial()
                && !expect.retransmissionsFaithful()
                && !expect.toTesterPort()
                && !expect.nacksFirst()
                && !expect.rateHintInEveryAck()
                && !expect.noCongestionSignals()
                && !expect.distinctSinkHandles()
                && !expect.sentUdpChecksums()
                && !expect.placedWhenAcknowledged()
                && !expect.ackCoalescing()) {
            // A vector that expects nothing passes against anything: a defect, not a vector.
            throw new VectorException(f.file, "$.expect", "expects nothing; give at least one expectation");
        }
        return expect;
    }

    private static List<Sidecar.RegionContent> regionContents(final Fields f, final JsonNode node, final String where)
            throws VectorException {
        final List<Sidecar.RegionContent> regions = new ArrayList<>();
        int index = 0;
        for (final JsonNode region : f.array(node, where, "regions", false)) {
            final String at = where + ".regions[" + index++ + "]";
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
        return List.copyOf(regions);
    }

    /** What a response expectation may say of a packet; {@code never} entries say no more. */
    private static final String[] RESPONSE_FIELDS = {
        "opcode", "path", "cumulativePsnOffset", "nackCode", "sack", "echoedTimestamp", "rejected", "ceCount"
    };

    /** A {@code responses} entry also counts: at least and at most so many. */
    private static final String[] COUNTED_RESPONSE_FIELDS = java.util.stream.Stream.concat(
                    java.util.Arrays.stream(RESPONSE_FIELDS), java.util.stream.Stream.of("atLeast", "atMost"))
            .toArray(String[]::new);

    private static List<Sidecar.ResponseExpectation> responses(final Fields f, final JsonNode node, final String name)
            throws VectorException {
        final List<Sidecar.ResponseExpectation> out = new ArrayList<>();
        int index = 0;
        for (final JsonNode response : f.array(node, "$.expect", name, false)) {
            final String at = "$.expect." + name + "[" + index++ + "]";
            f.only(response, at, name.equals("responses") ? COUNTED_RESPONSE_FIELDS : RESPONSE_FIELDS);
            Optional<Sidecar.Rejected> rejected = Optional.empty();
            if (response.has("rejected")) {
                if (!"NACK".equals(response.path("opcode").asText())) {
                    throw new VectorException(f.file, at + ".rejected", "is only for a NACK");
                }
                final JsonNode named = f.object(response, at, "rejected");
                final String in = at + ".rejected";
                f.only(named, in, "psnOffset", "stream", "msn");
                rejected = Optional.of(new Sidecar.Rejected(
                        f.integer(named, in, "psnOffset", 0, 0xFFFF_FFFFL),
                        (int) f.integer(named, in, "stream", 0, 0xFFFF),
                        f.integer(named, in, "msn", 0, 0xFFFF_FFFFL)));
            }
            for (final String ackOnly : List.of("echoedTimestamp", "ceCount")) {
                if (response.has(ackOnly)
                        && !"ACK".equals(response.path("opcode").asText())) {
                    throw new VectorException(f.file, at + "." + ackOnly, "is only for an ACK");
                }
            }
            final Optional<List<Integer>> sack =
                    response.has("sack") ? Optional.of(sackBits(f, response, at)) : Optional.empty();
            final int atLeast = response.has("atLeast") ? (int) f.integer(response, at, "atLeast", 1, 1_000_000) : 1;
            final java.util.OptionalInt atMost = response.has("atMost")
                    ? java.util.OptionalInt.of((int) f.integer(response, at, "atMost", atLeast, 1_000_000))
                    : java.util.OptionalInt.empty();
            out.add(new Sidecar.ResponseExpectation(
                    f.oneOf(response, at, "opcode", OPCODES),
                    response.has("path")
                            ? OptionalLong.of(f.integer(response, at, "path", 0, 255))
                            : OptionalLong.empty(),
                    response.has("cumulativePsnOffset")
                            ? OptionalLong.of(f.integer(response, at, "cumulativePsnOffset", 0, 0xFFFF_FFFFL))
                            : OptionalLong.empty(),
                    response.has("nackCode") ? Optional.of(f.string(response, at, "nackCode")) : Optional.empty(),
                    atLeast,
                    atMost,
                    sack,
                    response.has("echoedTimestamp")
                            ? OptionalLong.of(f.integer(response, at, "echoedTimestamp", 0, 0xFFFF_FFFFL))
                            : OptionalLong.empty(),
                    rejected,
                    response.has("ceCount")
                            ? OptionalLong.of(f.integer(response, at, "ceCount", 0, 0xFFFF))
                            : OptionalLong.empty()));
        }
        return List.copyOf(out);
    }

    /** An ACK's SACK bits: offsets 1 to 255 from its cumulative PSN (bit 0 is that PSN, never received), ascending. */
    private static List<Integer> sackBits(final Fields f, final JsonNode response, final String at)
            throws VectorException {
        if (!"ACK".equals(response.path("opcode").asText())) {
            throw new VectorException(f.file, at + ".sack", "is only for an ACK");
        }
        final List<Integer> bits = new ArrayList<>();
        for (final JsonNode value : f.array(response, at, "sack", true)) {
            final String where = at + ".sack[" + bits.size() + "]";
            if (!value.isIntegralNumber() || value.asLong() < 1 || value.asLong() > 255) {
                throw new VectorException(f.file, where, "is " + value + "; must be a whole number 1 to 255");
            }
            final int bit = value.asInt();
            if (!bits.isEmpty() && bit <= bits.get(bits.size() - 1)) {
                throw new VectorException(f.file, where, "is " + bit + "; must be above the bit before it");
            }
            bits.add(bit);
        }
        return List.copyOf(bits);
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

        long u32(final JsonNode node, final String at, final String name) throws VectorException {
            final long value = u64(node, at, name);
            if ((value & ~0xFFFF_FFFFL) != 0) {
                throw new VectorException(file, at + "." + name, "must fit 32 bits");
            }
            return value;
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
