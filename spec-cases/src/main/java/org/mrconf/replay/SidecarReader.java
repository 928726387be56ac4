package org.mrconf.replay;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.mrconf.files.UserFileException;
import org.mrconf.files.UserFiles;

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
    static final Set<String> CONTROL_OPS =
            Set.of(Sidecar.Control.INVALIDATE_REGION, Sidecar.Control.DESTROY_CONNECTION);
    static final Set<String> AWAIT_OPCODES =
            Set.of("WRITE", "WRITE_WITH_IMMEDIATE", "SEND", "READ_REQUEST", "READ_RESPONSE");
    static final Set<String> OPCODES =
            Set.of("WRITE", "WRITE_WITH_IMMEDIATE", "SEND", "READ_REQUEST", "READ_RESPONSE", "ACK", "NACK", "PROBE");
    private static final Pattern CLAUSE = Pattern.compile("[0-9]{1,2}\\.[0-9]{1,2}\\.[0-9]{1,2}");

    /** Strict about duplicate keys: {@code {"kind": "valid", "kind": "invalid"}} has no one meaning. */
    private final ObjectMapper mapper =
            new ObjectMapper().enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    /** Reads and checks {@code file}. */
    public Sidecar read(final Path file) throws VectorException {
        final JsonNode root = parse(file);
        final SidecarFields f = new SidecarFields(file);
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
        final List<Sidecar.Step> steps = StepReader.steps(f, root);
        StepOrderRules.checkNames(f, setup, placeholders, steps);
        final Set<String> asCaptured = asCaptured(f, root);
        final Sidecar.Expect expect = ExpectReader.expect(f, f.object(root, "$", "expect"));
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
            final SidecarFields f, final JsonNode root, final Set<String> asCaptured) throws VectorException {
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
    private static Set<String> asCaptured(final SidecarFields f, final JsonNode root) throws VectorException {
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

    private JsonNode parse(final Path file) throws VectorException {
        try {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                throw new VectorException(file, "", "is not a regular file");
            }
            final String text = UserFiles.readUtf8(file, UserFiles.Kind.SIDECAR);
            final JsonNode root = mapper.readTree(text);
            if (root == null || !root.isObject()) {
                throw new VectorException(file, "$", "must be a JSON object");
            }
            return root;
        } catch (final UserFileException e) {
            throw new VectorException(file, "", e.problem());
        } catch (final JsonProcessingException e) {
            throw new VectorException(
                    file, "", "is not valid JSON: " + e.getOriginalMessage() + " at " + e.getLocation());
        } catch (final IOException e) {
            throw new VectorException(file, "", "cannot be read: " + e.getMessage(), e);
        }
    }

    private static Sidecar.Setup setup(final SidecarFields f, final JsonNode setup) throws VectorException {
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
                    ? Optional.of(f.matching(region.get("hex"), at + ".hex", SidecarFields.HEX, "lower-case hex bytes"))
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

    private static Sidecar.Placeholders placeholders(final SidecarFields f, final JsonNode node)
            throws VectorException {
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
}
