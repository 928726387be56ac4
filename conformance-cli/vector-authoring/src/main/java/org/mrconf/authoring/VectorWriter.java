package org.mrconf.authoring;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.mrconf.files.UserFiles;
import org.mrconf.pcap.Ecn;
import org.mrconf.pcap.PcapWriter;
import org.mrconf.pcap.UdpFrame;
import org.mrconf.replay.TestVector;

/** Writes a vector folder: {@code vector.json} in a fixed field order and {@code stimulus.pcap} with good checksums. */
public final class VectorWriter {
    /** Addresses of the recorded stimulus: documentation addresses; replay sends from the wire link's own. */
    static final String TESTER_IP = "192.0.2.2";

    static final String DUT_IP = "192.0.2.1";
    /** A stimulus frame from another address than the tester's (clause 11.2.2); replay uses the link's other one. */
    static final String OTHER_IP = "192.0.2.99";
    /** The same for a stimulus recorded over IPv6 ({@link Scenario#ipv6}): documentation addresses too. */
    static final String TESTER_IP6 = "2001:db8::2";

    static final String DUT_IP6 = "2001:db8::1";
    /** The ECN field of a stimulus frame that does not set its own. */
    private static final Ecn DEFAULT_ECN = Ecn.ECT_0;

    private static final long FRAME_GAP_NS = 10_000;

    private final ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public Path write(final Path root, final Scenario scenario, final String specVersion) throws IOException {
        final Path folder = root.resolve(scenario.id);
        Files.createDirectories(folder);
        final ObjectNode sidecar = mapper.createObjectNode();
        sidecar.put("$schema", "../".repeat(Path.of(scenario.id).getNameCount()) + "schema/vector-1.schema.json");
        sidecar.put("id", scenario.id);
        sidecar.put("specVersion", specVersion);
        scenario.clauses.forEach(sidecar.putArray("clauses")::add);
        sidecar.put("kind", scenario.kind);
        sidecar.put("purpose", scenario.purpose);
        scenario.profiles.forEach(sidecar.putArray("profiles")::add);
        if (!scenario.unclaimedProfiles.isEmpty()) {
            scenario.unclaimedProfiles.forEach(sidecar.putArray("unclaimedProfiles")::add);
        }
        sidecar.set("setup", scenario.setup);
        final ObjectNode placeholders = sidecar.putObject("placeholders");
        placeholders.put("connection", hex(Scenarios.CONNECTION));
        placeholders.put("psnBase", Scenarios.PSN_BASE);
        final ObjectNode regions = placeholders.putObject("regions");
        if (scenario.hasRegion("target")) {
            // Only the target region is addressed by the stimulus; a DUT's own source or sink is not.
            regions.putObject("target")
                    .put("address", hex(Scenarios.TARGET_ADDRESS))
                    .put("key", hex(Scenarios.TARGET_KEY));
        }
        if (!scenario.requests.isEmpty()) {
            placeholders.set("requests", scenario.requests);
        }
        sidecar.put("pacing", "fast");
        if (!scenario.asCaptured.isEmpty()) {
            scenario.asCaptured.forEach(sidecar.putArray("asCaptured")::add);
        }
        if (!scenario.udpChecksums.isEmpty()) {
            final com.fasterxml.jackson.databind.node.ArrayNode checksums = sidecar.putArray("udpChecksums");
            scenario.udpChecksums.forEach((frame, checksum) ->
                    checksums.addObject().put("frame", frame).put("checksum", checksum));
        }
        sidecar.set("expect", scenario.expect);
        if (!scenario.steps.isEmpty()) {
            sidecar.set("steps", scenario.steps);
        }
        // Nothing through a link: a vector's files are never links (the reader refuses them too).
        UserFiles.writeUtf8(folder.resolve(TestVector.SIDECAR), mapper.writeValueAsString(sidecar) + "\n");
        UserFiles.checkWritable(folder.resolve(TestVector.STIMULUS));
        try (PcapWriter writer = PcapWriter.create(folder.resolve(TestVector.STIMULUS))) {
            for (int i = 0; i < scenario.stimulus.size(); i++) {
                writer.write(UdpFrame.builder()
                        .ips(
                                scenario.ipv6
                                        ? TESTER_IP6
                                        : scenario.fromOtherAddress.contains(i) ? OTHER_IP : TESTER_IP,
                                scenario.ipv6 ? DUT_IP6 : DUT_IP)
                        .srcPort(scenario.sourcePorts.getOrDefault(i, 49_152 + scenario.paths.get(i)))
                        .dstPort(UdpFrame.METAROCE_PORT)
                        .ecn(scenario.ecns.getOrDefault(i, DEFAULT_ECN))
                        .payload(scenario.stimulus.get(i))
                        .timestamp(Instant.ofEpochSecond(1_750_000_000L).plusNanos(i * FRAME_GAP_NS))
                        .build());
            }
        }
        return folder;
    }

    private static String hex(final long value) {
        return String.format("0x%08x", value);
    }
}
