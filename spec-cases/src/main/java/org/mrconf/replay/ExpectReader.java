package org.mrconf.replay;

import static org.mrconf.replay.SidecarReader.OPCODES;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads the {@code expect} section of a sidecar ({@link SidecarReader}), and the region contents and response
 * expectations that check steps share with it.
 */
final class ExpectReader {
    private ExpectReader() {}

    static Sidecar.Expect expect(final SidecarFields f, final JsonNode node) throws VectorException {
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

    static List<Sidecar.RegionContent> regionContents(final SidecarFields f, final JsonNode node, final String where)
            throws VectorException {
        final List<Sidecar.RegionContent> regions = new ArrayList<>();
        int index = 0;
        for (final JsonNode region : f.array(node, where, "regions", false)) {
            final String at = where + ".regions[" + index++ + "]";
            f.only(region, at, "region", "offset", "length", "hex", "sha256");
            final Optional<String> hex = region.has("hex")
                    ? Optional.of(f.matching(region.get("hex"), at + ".hex", SidecarFields.HEX, "lower-case hex bytes"))
                    : Optional.empty();
            final Optional<String> sha = region.has("sha256")
                    ? Optional.of(f.matching(
                            region.get("sha256"), at + ".sha256", SidecarFields.SHA256, "64 lower-case hex digits"))
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

    private static List<Sidecar.ResponseExpectation> responses(
            final SidecarFields f, final JsonNode node, final String name) throws VectorException {
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
    private static List<Integer> sackBits(final SidecarFields f, final JsonNode response, final String at)
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
}
