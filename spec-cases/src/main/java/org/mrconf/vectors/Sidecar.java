package org.mrconf.vectors;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A vector's {@code vector.json}, as {@link SidecarReader} reads it; the format is documented in
 * {@code test-vectors/README.md} and its JSON Schema is {@code test-vectors/schema/vector-1.schema.json}.
 *
 * @param id           the vector's id: its folder's path under {@code test-vectors/}
 * @param specVersion  the Open Draft version it was written against; must be the suite's
 * @param clauses      the clause ids it checks
 * @param kind         valid, invalid or inopportune
 * @param purpose      the test purpose, one sentence
 * @param profiles     the profiles a device must claim for the vector to apply
 * @param setup        what the DUT is given before the stimulus
 * @param placeholders the recorded values the replay rewrites to the DUT's actual ones
 * @param pacing       {@code fast} or {@code recorded}
 * @param expect       what must hold afterwards
 */
public record Sidecar(
        String id,
        String specVersion,
        List<String> clauses,
        String kind,
        String purpose,
        List<String> profiles,
        Setup setup,
        Placeholders placeholders,
        String pacing,
        Expect expect) {

    /**
     * The connection and what the DUT holds before the stimulus.
     *
     * @param initialPsn the first PSN of every path the tester sends on (the DUT's receive PSN), e.g. near 2^32 to
     *     test wrap-around; the stimulus's PSNs are shifted from {@link Placeholders#psnBase()} to it
     */
    public record Setup(int paths, int streams, long initialPsn, List<Region> regions, List<Receive> receives) {}

    /** A region the DUT registers; {@code fill} is the byte every byte starts as. */
    public record Region(String name, long length, List<String> access, int fill) {}

    /** A receive the DUT posts on a stream into a region. */
    public record Receive(int stream, String region, long offset, long length, long wrId) {}

    /**
     * What the stimulus was recorded with. Replay rewrites the destination connection id, each region's address and
     * key, and each path's PSNs (from {@code psnBase}) to the DUT's actual values, then recomputes the CRC; IP
     * addresses, ports and MACs are the wire link's.
     */
    public record Placeholders(long connection, long psnBase, Map<String, RegionPlaceholder> regions) {}

    /** The address and key a region had when the stimulus was recorded. */
    public record RegionPlaceholder(long address, long key) {}

    /** The expectations; every list may be empty. */
    public record Expect(
            List<RegionContent> regions,
            List<CompletionExpectation> completions,
            boolean noOtherCompletions,
            List<CounterExpectation> counters,
            List<ResponseExpectation> responses,
            List<ResponseExpectation> never) {}

    /** Bytes of a region after the stimulus: either their hex or their SHA-256. */
    public record RegionContent(
            String region, long offset, int length, Optional<String> hex, Optional<String> sha256) {}

    /** A completion the DUT must report. */
    public record CompletionExpectation(long wrId, String status, Optional<String> type, OptionalLong immediate) {}

    /** A counter's growth during the stimulus: exactly {@code delta}, or at least {@code atLeast}. */
    public record CounterExpectation(String name, OptionalLong delta, OptionalLong atLeast) {}

    /** Packets the DUT sends: an opcode and optional field values; at least {@code atLeast} of them. */
    public record ResponseExpectation(
            String opcode,
            OptionalLong path,
            OptionalLong cumulativePsnOffset,
            Optional<String> nackCode,
            int atLeast) {}
}
