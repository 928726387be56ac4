package org.mrconf.authoring;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A tester scenario that {@code vectors record} turns into a vector: the stimulus packets, as recorded with the
 * placeholder values of {@link Scenarios} (connection, PSN base, region address and key), and the sidecar's setup and
 * expectations, written from the spec's words, never read off the reference. Recording replays the vector against the
 * reference and refuses to write one the reference does not meet.
 */
public final class Scenario {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    public final String id;
    final List<String> clauses;
    final String kind;
    final String purpose;
    final List<String> profiles = new ArrayList<>(List.of("core"));
    /** Profiles the device must not claim ({@code unclaimedProfiles}): the scenario is about a device without them. */
    final List<String> unclaimedProfiles = new ArrayList<>();

    final ObjectNode setup = JSON.objectNode();
    final ObjectNode expect = JSON.objectNode();
    final List<byte[]> stimulus = new ArrayList<>();
    final List<Integer> paths = new ArrayList<>();
    /** Link-level fields of single frames, replayed as captured ({@code asCaptured}): by frame index. */
    final java.util.Map<Integer, Integer> sourcePorts = new java.util.HashMap<>();

    final java.util.Map<Integer, org.mrconf.pcap.Ecn> ecns = new java.util.HashMap<>();
    final java.util.Set<Integer> fromOtherAddress = new java.util.HashSet<>();
    /** The sidecar's {@code asCaptured}: which of those fields replay keeps. */
    final java.util.Set<String> asCaptured = new java.util.TreeSet<>();
    /** Frames sent with a deliberate UDP checksum ({@code udpChecksums}): {@code zero} or {@code wrong}, by index. */
    final java.util.Map<Integer, String> udpChecksums = new java.util.TreeMap<>();
    /** Whether the stimulus is recorded over IPv6 (documentation addresses of 2001:db8::/32). */
    boolean ipv6;
    /** The reference configuration the scenario is recorded against: one whose link can replay it. */
    public org.mrconf.embedded.ReferenceConfiguration configuration =
            org.mrconf.embedded.ReferenceConfiguration.STANDARD;
    /** The steps of a scenario in which the DUT sends; empty: the whole stimulus is sent. */
    final ArrayNode steps = JSON.arrayNode();
    /** Request placeholders by name (a READ_REQUEST of the DUT the stimulus answers). */
    final ObjectNode requests = JSON.objectNode();

    Scenario(final String id, final String kind, final String purpose, final String... clauses) {
        this.id = id;
        this.kind = kind;
        this.purpose = purpose;
        this.clauses = List.of(clauses);
        setup.put("paths", 1).put("streams", 1);
    }

    Scenario region(final String name, final int length, final String... access) {
        final ObjectNode region =
                array(setup, "regions").addObject().put("name", name).put("length", length);
        final ArrayNode flags = region.putArray("access");
        for (final String flag : access) {
            flags.add(flag);
        }
        return this;
    }

    /** A region every byte of which starts as {@code fill}. */
    Scenario region(final String name, final int length, final int fill, final String... access) {
        region(name, length, access);
        ((ObjectNode) ((ArrayNode) setup.get("regions"))
                        .get(setup.get("regions").size() - 1))
                .put("fill", fill);
        return this;
    }

    /** A region whose first bytes start as {@code bytes} (the rest as 0), e.g. the source of a WRITE the DUT posts. */
    Scenario region(final String name, final int length, final byte[] bytes, final String... access) {
        region(name, length, access);
        ((ObjectNode) ((ArrayNode) setup.get("regions"))
                        .get(setup.get("regions").size() - 1))
                .put("hex", java.util.HexFormat.of().formatHex(bytes));
        return this;
    }

    /** The first PSN of every path the DUT sends on. */
    Scenario initialSendPsn(final long psn) {
        setup.put("initialSendPsn", psn);
        return this;
    }

    /** A stimulus frame held back for a {@link #sendFrames} step; returns its index. */
    int frame(final int path, final byte[] packet) {
        stimulus.add(packet);
        paths.add(path);
        return stimulus.size() - 1;
    }

    /** Step: the DUT posts a WRITE, WRITE_WITH_IMMEDIATE or READ to the tester's {@code remoteAddress}/key. */
    Scenario post(
            final String op,
            final int stream,
            final long wrId,
            final String region,
            final int offset,
            final int length,
            final long remoteAddress,
            final long remoteKey) {
        final ObjectNode post = steps.addObject().putObject("post");
        post.put("op", op)
                .put("stream", stream)
                .put("wrId", wrId)
                .put("region", region)
                .put("offset", offset)
                .put("length", length);
        if (!"SEND".equals(op)) {
            post.put("remoteAddress", String.format("0x%08x", remoteAddress))
                    .put("remoteKey", String.format("0x%08x", remoteKey));
        }
        return this;
    }

    /** Step: the DUT posts a SEND. */
    Scenario postSend(final int stream, final long wrId, final String region, final int offset, final int length) {
        return post("SEND", stream, wrId, region, offset, length, 0, 0);
    }

    /** Step: wait for a whole message of the DUT; the caller adds the expected fields to the returned node. */
    ObjectNode await(final String opcode, final int stream) {
        final ObjectNode await = steps.addObject().putObject("await");
        await.put("opcode", opcode).put("stream", stream);
        return await;
    }

    /** Step: hold the tester's ACKs back, or send them and acknowledge at once again. */
    Scenario holdAcks(final boolean hold) {
        steps.addObject().putObject("acks").put("hold", hold);
        return this;
    }

    /** Step: acknowledge at once, every ACK from now on carrying the rate hint {@code mbps} (clause 8.2.3). */
    Scenario rateHint(final long mbps) {
        steps.addObject().putObject("acks").put("hold", false).put("rateHint", mbps);
        return this;
    }

    /** Step: the DUT keeps to the rate hint over {@code millis} of its own clock from its next packet (10.1.4). */
    Scenario checkRateWithinHint(final long millis) {
        steps.addObject().putObject("check").put("rateWithinHint", millis);
        return this;
    }

    /** Step: NACK the message an await bound as {@code of}. */
    /** Step: NACK the message {@code of} RECEIVER_NOT_READY with retry after {@code retryAfterUs} microseconds. */
    Scenario nackReceiverNotReady(final String of, final long retryAfterUs) {
        steps.addObject()
                .putObject("nack")
                .put("of", of)
                .put("code", "RECEIVER_NOT_READY")
                .put("retryAfter", retryAfterUs);
        return this;
    }

    /** Step: the PSN the latest nack step NACKed RECEIVER_NOT_READY is resent on its path, not before the retry. */
    Scenario checkResentAfterRetry() {
        steps.addObject().putObject("check").put("resentAfterRetry", true);
        return this;
    }

    /** Step: the PSN the latest nack step NACKed PSN_OUT_OF_WINDOW is not resent within {@code ms} (9.1.11). */
    Scenario checkNotResentFor(final long ms) {
        steps.addObject().putObject("check").put("notResentFor", ms);
        return this;
    }

    Scenario nack(final String of, final String code) {
        steps.addObject().putObject("nack").put("of", of).put("code", code);
        return this;
    }

    /** Step: NACK the message named {@code of}, but with stream id {@code stream} and MSN {@code msn} instead. */
    Scenario nack(final String of, final String code, final int stream, final long msn) {
        steps.addObject()
                .putObject("nack")
                .put("of", of)
                .put("code", code)
                .put("stream", stream)
                .put("msn", msn);
        return this;
    }

    /** Frame {@code index} goes from UDP source port {@code port}, which replay keeps. */
    Scenario sourcePort(final int index, final int port) {
        sourcePorts.put(index, port);
        asCaptured.add("sourcePort");
        return this;
    }

    /** Frame {@code index} carries IP ECN field {@code ecn}, which replay keeps (every frame keeps its own then). */
    Scenario ecn(final int index, final org.mrconf.pcap.Ecn ecn) {
        ecns.put(index, ecn);
        asCaptured.add("ecn");
        return this;
    }

    /** Frame {@code index} comes from another IP address than the tester's: replay sends it from the link's other. */
    Scenario fromOtherAddress(final int index) {
        fromOtherAddress.add(index);
        asCaptured.add("sourceAddress");
        return this;
    }

    /** Expect: everything the DUT sent went to the tester's MetaRoCE port (clauses 4.1.3, 4.2.3). */
    /**
     * Records the stimulus over IPv6 against {@code configuration}, and replays it only on an IPv6 link
     * ({@code asCaptured ipFamily}).
     */
    Scenario overIpv6(final org.mrconf.embedded.ReferenceConfiguration configuration) {
        ipv6 = true;
        this.configuration = configuration;
        asCaptured.add(org.mrconf.replay.Sidecar.IP_FAMILY);
        return this;
    }

    /** Frame {@code index} goes out with a {@code zero} or {@code wrong} UDP checksum (the capture keeps a right one). */
    Scenario udpChecksum(final int index, final String checksum) {
        udpChecksums.put(index, checksum);
        return this;
    }

    /** Every datagram the DUT sends carries a right UDP checksum, or over IPv4 a zero one (clause 4.1.6). */
    Scenario expectSentUdpChecksums() {
        expect.put("sentUdpChecksums", true);
        return this;
    }

    /** After each frame, the WRITEs an ACK reported are in place when read right after it (clause 8.1.1). */
    Scenario expectPlacedWhenAcknowledged() {
        expect.put("placedWhenAcknowledged", true);
        return this;
    }

    Scenario expectToTesterPort() {
        expect.put("toTesterPort", true);
        return this;
    }

    /** Step: invalidate the DUT's region {@code region} through the control channel (clause 11.1.4). */
    Scenario invalidateRegion(final String region) {
        steps.addObject().putObject("control").put("op", "invalidate_region").put("region", region);
        return this;
    }

    /** Step: destroy the vector's connection at the DUT through the control channel (clause 4.2.2). */
    Scenario destroyConnection() {
        steps.addObject().putObject("control").put("op", "destroy_connection");
        return this;
    }

    /** Step: these work requests have not completed (while the DUT is quiet). */
    Scenario checkNotCompleted(final long... wrIds) {
        putIds(steps.addObject().putObject("check"), "notCompleted", wrIds);
        return this;
    }

    /** Step: {@code completed} have completed (waited for), and {@code notCompleted} have not. */
    Scenario checkCompleted(final long[] completed, final long... notCompleted) {
        final ObjectNode check = steps.addObject().putObject("check");
        putIds(check, "completed", completed);
        if (notCompleted.length > 0) {
            putIds(check, "notCompleted", notCompleted);
        }
        return this;
    }

    /** Step: the send window: at most {@code window} PSNs outstanding on each path (clause 6.1.3). */
    Scenario checkSendWindow(final long window) {
        steps.addObject().putObject("check").put("sendWindow", window);
        return this;
    }

    /** Step: ACK at once, but treat the first PSN of each path as lost (a SACK gap there). */
    Scenario loseFirst() {
        steps.addObject().putObject("acks").put("hold", false).put("loseFirst", true);
        return this;
    }

    /**
     * Step: ACK at once, each ACK echoing a timestamp {@code ms} older than the packet's own, which stretches the
     * DUT's RTT estimate and RTO so that no timer of the DUT's races what follows.
     */
    Scenario stretchTimer(final long ms) {
        steps.addObject().putObject("acks").put("hold", false).put("echoAge", ms);
        return this;
    }

    /**
     * Step: hold ACKs back, and treat every arrival of these PSN offsets (from each path's next new PSN) as lost until a
     * describing acks step.
     */
    Scenario holdAndLose(final long... offsets) {
        final ArrayNode lose =
                steps.addObject().putObject("acks").put("hold", true).putArray("lose");
        for (final long offset : offsets) {
            lose.add(offset);
        }
        return this;
    }

    /** Step: end the losses, send one ACK per path describing all received, and go on holding ACKs back. */
    Scenario describeHeld() {
        steps.addObject().putObject("acks").put("hold", true).put("describe", true);
        return this;
    }

    /**
     * Step: send one ACK per path describing all received, each reporting a CE count of {@code ceCount}, as will every
     * later ACK, and go on holding ACKs back (clauses 10.1.1, 10.1.2).
     */
    Scenario reportCe(final int ceCount) {
        steps.addObject()
                .putObject("acks")
                .put("hold", true)
                .put("describe", true)
                .put("ceCount", ceCount);
        return this;
    }

    /**
     * Step: acknowledge at once, with echoes {@code echoAgeMs} old, every path but {@code silent}, whose packets the
     * tester records and never acknowledges until the next acks step (clause 6.7.1).
     */
    Scenario silence(final long echoAgeMs, final int... silent) {
        final ArrayNode paths = steps.addObject()
                .putObject("acks")
                .put("hold", false)
                .put("echoAge", echoAgeMs)
                .putArray("silentPaths");
        for (final int path : silent) {
            paths.add(path);
        }
        return this;
    }

    /** Step: a check with one flag set, e.g. {@code unhealthy}, {@code avoided} or {@code healed}. */
    Scenario check(final String flag) {
        steps.addObject().putObject("check").put(flag, true);
        return this;
    }

    /** Step: with ACKs held, the packets in flight on each path stay within its congestion window (10.1.1). */
    Scenario checkPathWindow() {
        steps.addObject().putObject("check").put("pathWindow", true);
        return this;
    }

    /** Step: with ACKs held, the packets in flight on the connection stay within its window (10.1.2). */
    Scenario checkConnectionWindow() {
        steps.addObject().putObject("check").put("connectionWindow", true);
        return this;
    }

    /** Each ACK advances the cumulative PSN by at most the declared coalescing count (clause 8.1.4). */
    Scenario expectAckCoalescing() {
        expect.put("ackCoalescing", true);
        return this;
    }

    /** Step: after those ACKs, the DUT resends every hole they show and nothing they report (6.3.1, 6.4.1). */
    Scenario checkResentOnlyLost() {
        steps.addObject().putObject("check").put("resentOnlyLost", true);
        return this;
    }

    /** Step: send these stimulus frames, in this order. */
    Scenario sendFrames(final int... frames) {
        final ArrayNode list = steps.addObject().putObject("send").putArray("frames");
        for (final int frame : frames) {
            list.add(frame);
        }
        return this;
    }

    /** Step: the region holds {@code hex} at {@code offset} (waited for), and these work requests have not completed. */
    Scenario checkOnTheWay(final String region, final int offset, final String hex, final long... notCompleted) {
        final ObjectNode check = steps.addObject().putObject("check");
        check.putArray("regions")
                .addObject()
                .put("region", region)
                .put("offset", offset)
                .put("length", hex.length() / 2)
                .put("hex", hex);
        if (notCompleted.length > 0) {
            putIds(check, "notCompleted", notCompleted);
        }
        return this;
    }

    /** {@code check.field}: the work request ids, in order. */
    private static void putIds(final ObjectNode check, final String field, final long... wrIds) {
        final ArrayNode ids = check.putArray(field);
        for (final long id : wrIds) {
            ids.add(id);
        }
    }

    /** A READ_REQUEST of the DUT that stimulus READ_RESPONSEs recorded with {@code sinkHandle} answer. */
    Scenario request(final String name, final long sinkHandle, final long msn) {
        requests.putObject(name)
                .put("sinkHandle", String.format("0x%08x", sinkHandle))
                .put("msn", msn);
        return this;
    }

    /** The DUT's PSNs on every path run from the initial send PSN by 1 (clause 6.1.1). */
    Scenario expectSentPsnsFromInitial() {
        expect.put("sentPsnsFromInitial", true);
        return this;
    }

    Scenario receive(final int stream, final String region, final int offset, final int length, final long wrId) {
        array(setup, "receives")
                .addObject()
                .put("stream", stream)
                .put("region", region)
                .put("offset", offset)
                .put("length", length)
                .put("wrId", wrId);
        return this;
    }

    Scenario send(final int path, final byte[] packet) {
        stimulus.add(packet);
        paths.add(path);
        return this;
    }

    Scenario expectRegion(final String region, final int offset, final String hex) {
        array(expect, "regions")
                .addObject()
                .put("region", region)
                .put("offset", offset)
                .put("length", hex.length() / 2)
                .put("hex", hex);
        return this;
    }

    Scenario expectRegionSha256(final String region, final int offset, final int length, final String sha256) {
        array(expect, "regions")
                .addObject()
                .put("region", region)
                .put("offset", offset)
                .put("length", length)
                .put("sha256", sha256);
        return this;
    }

    Scenario expectCounter(final String name, final long delta) {
        array(expect, "counters").addObject().put("name", name).put("delta", delta);
        return this;
    }

    Scenario expectCompletion(final long wrId, final String status, final String type) {
        array(expect, "completions")
                .addObject()
                .put("wrId", wrId)
                .put("status", status)
                .put("type", type);
        return this;
    }

    Scenario expectCompletion(final long wrId, final String status, final String type, final long immediate) {
        array(expect, "completions")
                .addObject()
                .put("wrId", wrId)
                .put("status", status)
                .put("type", type)
                .put("immediate", immediate);
        return this;
    }

    Scenario noOtherCompletions() {
        expect.put("noOtherCompletions", true);
        return this;
    }

    Scenario expectAck(final int path, final long cumulativeOffset, final int atLeast) {
        ack(path, cumulativeOffset).put("atLeast", atLeast);
        return this;
    }

    /** An ACK of {@code path} with that cumulative PSN and CE count {@code ceCount} (clause 8.2.2). */
    Scenario expectAckWithCeCount(final int path, final long cumulativeOffset, final int ceCount) {
        ack(path, cumulativeOffset).put("ceCount", ceCount);
        return this;
    }

    /** An ACK of {@code path} with that cumulative PSN and exactly these SACK bits (offsets from the cumulative PSN). */
    Scenario expectAckWithSack(final int path, final long cumulativeOffset, final int... sack) {
        final var bits = ack(path, cumulativeOffset).putArray("sack");
        for (final int bit : sack) {
            bits.add(bit);
        }
        return this;
    }

    /** An ACK of {@code path} with that cumulative PSN echoing {@code timestamp} (clause 8.2.1). */
    Scenario expectAckEchoing(final int path, final long cumulativeOffset, final long timestamp) {
        ack(path, cumulativeOffset).put("echoedTimestamp", timestamp);
        return this;
    }

    /** A new expected ACK of {@code path} with that cumulative PSN, for the caller to add to. */
    private ObjectNode ack(final int path, final long cumulativeOffset) {
        return array(expect, "responses")
                .addObject()
                .put("opcode", "ACK")
                .put("path", path)
                .put("cumulativePsnOffset", cumulativeOffset);
    }

    /**
     * A NACK of {@code path} with {@code code} and cumulative PSN {@code cumulativeOffset}, naming the packet of PSN
     * {@code psnOffset}, {@code stream} and {@code msn} (Table 5-10).
     */
    Scenario expectNackNaming(
            final int path,
            final String code,
            final long cumulativeOffset,
            final long psnOffset,
            final int stream,
            final long msn) {
        array(expect, "responses")
                .addObject()
                .put("opcode", "NACK")
                .put("path", path)
                .put("nackCode", code)
                .put("cumulativePsnOffset", cumulativeOffset)
                .putObject("rejected")
                .put("psnOffset", psnOffset)
                .put("stream", stream)
                .put("msn", msn);
        return this;
    }

    Scenario expectNack(final String code) {
        array(expect, "responses").addObject().put("opcode", "NACK").put("nackCode", code);
        return this;
    }

    /** At least {@code atLeast} DUT packets of {@code opcode}. */
    Scenario expectResponse(final String opcode, final int atLeast) {
        array(expect, "responses").addObject().put("opcode", opcode).put("atLeast", atLeast);
        return this;
    }

    /** Between {@code atLeast} and {@code atMost} DUT packets of {@code opcode}, data counted at first transmission. */
    Scenario expectResponses(final String opcode, final int atLeast, final int atMost) {
        array(expect, "responses")
                .addObject()
                .put("opcode", opcode)
                .put("atLeast", atLeast)
                .put("atMost", atMost);
        return this;
    }

    /** No ACK of {@code path} whose cumulative PSN is {@code cumulativeOffset} past the initial PSN. */
    Scenario neverAck(final int path, final long cumulativeOffset) {
        array(expect, "never")
                .addObject()
                .put("opcode", "ACK")
                .put("path", path)
                .put("cumulativePsnOffset", cumulativeOffset);
        return this;
    }

    Scenario never(final String opcode) {
        array(expect, "never").addObject().put("opcode", opcode);
        return this;
    }

    boolean hasRegion(final String name) {
        if (!setup.has("regions")) {
            return false;
        }
        for (final com.fasterxml.jackson.databind.JsonNode region : setup.get("regions")) {
            if (name.equals(region.get("name").asText())) {
                return true;
            }
        }
        return false;
    }

    private static ArrayNode array(final ObjectNode node, final String name) {
        return node.has(name) ? (ArrayNode) node.get(name) : node.putArray(name);
    }
}
