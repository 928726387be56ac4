package org.mrconf.replay;

import static org.mrconf.replay.SidecarReader.AWAIT_OPCODES;
import static org.mrconf.replay.SidecarReader.CONTROL_OPS;
import static org.mrconf.replay.SidecarReader.NACK_CODES;
import static org.mrconf.replay.SidecarReader.POST_OPS;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads the {@code steps} of a sidecar ({@link SidecarReader}): each step's one kind (post, await, send, check, acks,
 * nack, control) with its fields checked, in order.
 */
final class StepReader {
    private StepReader() {}

    static List<Sidecar.Step> steps(final SidecarFields f, final JsonNode root) throws VectorException {
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

    private static Sidecar.Post post(final SidecarFields f, final JsonNode node, final String at)
            throws VectorException {
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

    private static Sidecar.Await await(final SidecarFields f, final JsonNode node, final String at)
            throws VectorException {
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
                f.optional(node, at, "msn", 0xFFFF_FFFFL),
                f.optional(node, at, "messageLength", 0xFFFF_FFFFL),
                node.has("remoteAddress") ? OptionalLong.of(f.u64(node, at, "remoteAddress")) : OptionalLong.empty(),
                node.has("remoteKey") ? OptionalLong.of(f.u32(node, at, "remoteKey")) : OptionalLong.empty(),
                f.optional(node, at, "immediate", 0xFFFF_FFFFL),
                f.optional(node, at, "rsn", 0xFFFF_FFFFL),
                node.has("sinkHandle") ? OptionalLong.of(f.u32(node, at, "sinkHandle")) : OptionalLong.empty(),
                node.has("payloadHex")
                        ? Optional.of(f.matching(
                                node.get("payloadHex"), at + ".payloadHex", SidecarFields.HEX, "lower-case hex bytes"))
                        : Optional.empty(),
                node.has("payloadSha256")
                        ? Optional.of(f.matching(
                                node.get("payloadSha256"),
                                at + ".payloadSha256",
                                SidecarFields.SHA256,
                                "64 lower-case hex digits"))
                        : Optional.empty(),
                node.has("reservedZero") && f.bool(node, at, "reservedZero"),
                node.has("fullSegments") && f.bool(node, at, "fullSegments"));
    }

    private static Sidecar.Send send(final SidecarFields f, final JsonNode node, final String at)
            throws VectorException {
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

    private static Sidecar.Acks acks(final SidecarFields f, final JsonNode node, final String at)
            throws VectorException {
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
        final OptionalLong hint = f.optional(node, at, "rateHint", 0xFFFF_FFFFL);
        if (hint.isPresent() && hint.getAsLong() == 0) {
            throw new VectorException(f.file, at + ".rateHint", "is in Mbit/s and at least 1 (clause 8.2.3)");
        }
        // An echo at most 4 s old: timestamps are nanoseconds modulo 2^32 (about 4.29 s), so an older one would wrap.
        final OptionalLong echoAge = f.optional(node, at, "echoAge", 4_000);
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
                f.optional(node, at, "ceCount", 0xFFFF),
                List.copyOf(silentPaths),
                // A wait of up to 10 s: a round trip, not a timeout (the hold limit judges those).
                f.optional(node, at, "waitMs", 10_000));
    }

    private static Sidecar.Nack nack(final SidecarFields f, final JsonNode node, final String at)
            throws VectorException {
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

    private static Sidecar.Control control(final SidecarFields f, final JsonNode node, final String at)
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

    private static Sidecar.Check check(final SidecarFields f, final JsonNode node, final String at)
            throws VectorException {
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
        final List<Sidecar.RegionContent> regions = ExpectReader.regionContents(f, node, at);
        final List<Long> completed = f.wrIds(node, at, "completed");
        final List<Long> notCompleted = f.wrIds(node, at, "notCompleted");
        final OptionalLong outstanding = f.optional(node, at, "sendWindow", 0xFFFF_FFFFL);
        final Sidecar.Check check = new Sidecar.Check(
                regions,
                completed,
                notCompleted,
                outstanding,
                node.has("resentOldest") && f.bool(node, at, "resentOldest"),
                node.has("newSourcePort") && f.bool(node, at, "newSourcePort"),
                node.has("backoff") && f.bool(node, at, "backoff"),
                node.has("everyPath") && f.bool(node, at, "everyPath"),
                f.wrIds(node, at, "failed"),
                f.optional(node, at, "rateWithinHint", 60_000),
                node.has("resentOnlyLost") && f.bool(node, at, "resentOnlyLost"),
                node.has("resentAfterRetry") && f.bool(node, at, "resentAfterRetry"),
                f.optional(node, at, "notResentFor", 10_000),
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
}
