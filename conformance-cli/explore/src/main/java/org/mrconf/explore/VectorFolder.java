package org.mrconf.explore;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.mrconf.pcap.Ecn;
import org.mrconf.pcap.PcapWriter;
import org.mrconf.pcap.UdpFrame;
import org.mrconf.replay.TestVector;
import org.mrconf.replay.VectorFiles;

/**
 * Writes a program's {@link Stimulus} as a test-vector folder ({@code vector.json} and {@code stimulus.pcap}, the
 * format of {@code test-vectors/README.md}) under a vector root, and that root's {@code MANIFEST.sha256}, so that
 * {@code metaroce vectors verify --root ROOT} accepts it and {@code metaroce run -Dmetaroce.vectors=ROOT --case
 * 'vector:ID'} replays it.
 */
final class VectorFolder {
    /** The manifest file of a vector root. */
    static final String MANIFEST = "MANIFEST.sha256";

    private static final String TESTER_IP = "192.0.2.2";
    private static final String DUT_IP = "192.0.2.1";
    private static final long FRAME_GAP_NS = 10_000;

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private VectorFolder() {}

    /**
     * Writes the vector {@code clause/name} under {@code root}.
     *
     * @return the folder
     */
    static Path write(
            final Path root,
            final String clause,
            final String name,
            final List<String> clauses,
            final String purpose,
            final Stimulus stimulus,
            final String specVersion,
            final List<String> profiles)
            throws IOException {
        final String id = clause + "/" + name;
        final Path folder = root.resolve(clause).resolve(name);
        Files.createDirectories(folder);
        final ObjectNode sidecar = MAPPER.createObjectNode();
        sidecar.put("$schema", "../../schema/vector-1.schema.json");
        sidecar.put("id", id);
        sidecar.put("specVersion", specVersion);
        clauses.forEach(sidecar.putArray("clauses")::add);
        sidecar.put("kind", stimulus.kind());
        sidecar.put("purpose", purpose);
        profiles.forEach(sidecar.putArray("profiles")::add);
        stimulus.describe(sidecar);
        Files.writeString(
                folder.resolve(TestVector.SIDECAR), MAPPER.writeValueAsString(sidecar) + "\n", StandardCharsets.UTF_8);
        try (PcapWriter writer = PcapWriter.create(folder.resolve(TestVector.STIMULUS))) {
            for (int i = 0; i < stimulus.frames.size(); i++) {
                final Stimulus.Frame frame = stimulus.frames.get(i);
                writer.write(UdpFrame.builder()
                        .ips(TESTER_IP, DUT_IP)
                        .srcPort(49_152 + frame.path())
                        .dstPort(UdpFrame.METAROCE_PORT)
                        .ecn(frame.ce() ? Ecn.CE : Ecn.ECT_0)
                        .payload(frame.packet())
                        .timestamp(Instant.ofEpochSecond(1_750_000_000L).plusNanos(i * FRAME_GAP_NS))
                        .build());
            }
        }
        return folder;
    }

    /** Writes {@code root}'s manifest from the files under it (the format {@code vectors verify} checks). */
    static void writeManifest(final Path root) throws IOException {
        final StringBuilder text = new StringBuilder();
        VectorFiles.hashesUnder(root)
                .forEach((path, hash) ->
                        text.append(hash).append("  ").append(path).append('\n'));
        Files.writeString(root.resolve(MANIFEST), text, StandardCharsets.UTF_8);
    }
}
