package org.mrconf.softdut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mrconf.agent.Requests.access;
import static org.mrconf.agent.Requests.args;
import static org.mrconf.agent.Requests.hex;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.Predicate;
import org.mrconf.agent.NdjsonClient;
import org.mrconf.agent.Requests;

/**
 * Two UDP soft DUTs on 127.0.0.1 with ephemeral ports, connected to each other and driven only through
 * the control protocol over TCP: connection {@value #A_ID} on A talks to {@value #B_ID} on B.
 */
final class DutPair implements AutoCloseable {
    static final int A_ID = 1;
    static final int B_ID = 2;
    static final int PATHS = 4;
    static final int STREAMS = 2;
    static final long BASE = 0x1000_0000L;
    static final int REGION_BYTES = 2 << 20;
    /** Longest any wait in these tests may take; generous, so slow machines pass. */
    static final long PATIENCE_MS = 60_000;

    final SoftDut a;
    final SoftDut b;
    final NdjsonClient controlA;
    final NdjsonClient controlB;
    long keyA;
    long keyB;

    DutPair() throws IOException {
        a = SoftDut.start(SoftDutOptions.builder().udpPort(0).controlPort(0).build());
        b = SoftDut.start(SoftDutOptions.builder().udpPort(0).controlPort(0).build());
        controlA = new NdjsonClient(a.controlPort());
        controlB = new NdjsonClient(b.controlPort());
    }

    /** Connects A and B and registers a 2 MiB region on each. */
    DutPair connect() {
        controlA.ok("hello", args("client", "DutPair"));
        controlB.ok("hello", args("client", "DutPair"));
        controlA.ok(
                "create_connection",
                args(
                        "localId",
                        A_ID,
                        "peerId",
                        B_ID,
                        "peerAddress",
                        "127.0.0.1",
                        "peerPort",
                        b.udpPort(),
                        "paths",
                        PATHS,
                        "streams",
                        STREAMS));
        controlB.ok(
                "create_connection",
                args(
                        "localId",
                        B_ID,
                        "peerId",
                        A_ID,
                        "peerAddress",
                        "127.0.0.1",
                        "peerPort",
                        a.udpPort(),
                        "paths",
                        PATHS,
                        "streams",
                        STREAMS));
        keyA = register(controlA);
        keyB = register(controlB);
        return this;
    }

    private static long register(final NdjsonClient client) {
        return client.ok(
                        "register_region",
                        args(
                                "address",
                                hex(BASE),
                                "length",
                                REGION_BYTES,
                                "access",
                                access("LOCAL_WRITE", "REMOTE_WRITE", "REMOTE_READ")))
                .get("key")
                .asLong();
    }

    /** Writes {@code bytes} into a region in 512 KiB pieces. */
    static void writeRegion(final NdjsonClient client, final long key, final long address, final byte[] bytes) {
        final int piece = 512 * 1024;
        for (int offset = 0; offset < bytes.length; offset += piece) {
            final int length = Math.min(piece, bytes.length - offset);
            final byte[] part = java.util.Arrays.copyOfRange(bytes, offset, offset + length);
            client.ok(
                    "write_region",
                    args(
                            "key",
                            key,
                            "address",
                            hex(address + offset),
                            "data",
                            Base64.getEncoder().encodeToString(part)));
        }
    }

    /** Reads {@code length} bytes of a region in 512 KiB pieces. */
    static byte[] readRegion(final NdjsonClient client, final long key, final long address, final int length) {
        final byte[] bytes = new byte[length];
        final int piece = 512 * 1024;
        for (int offset = 0; offset < length; offset += piece) {
            final int part = Math.min(piece, length - offset);
            final byte[] data = Base64.getDecoder()
                    .decode(client.ok("read_region", args("key", key, "address", hex(address + offset), "length", part))
                            .get("data")
                            .asText());
            System.arraycopy(data, 0, bytes, offset, part);
        }
        return bytes;
    }

    /** Polls (with waiting polls) until a completion matching {@code wanted} arrives; returns it. */
    static JsonNode awaitCompletion(final NdjsonClient client, final Predicate<JsonNode> wanted) {
        final List<JsonNode> seen = new ArrayList<>();
        final long deadline = System.nanoTime() + PATIENCE_MS * 1_000_000L;
        while (System.nanoTime() - deadline < 0) {
            for (final JsonNode completion :
                    Requests.completions(client.ok("poll_completions", args("max", 64, "waitMs", 1000)))) {
                if (wanted.test(completion)) {
                    return completion;
                }
                seen.add(completion);
            }
        }
        throw new AssertionError("no matching completion within " + PATIENCE_MS + " ms; saw " + seen);
    }

    static Predicate<JsonNode> wrId(final long wrId) {
        return c -> c.get("wrId").asLong() == wrId;
    }

    static long counter(final NdjsonClient client, final String name) {
        final JsonNode counters = client.ok("read_counters", args()).get("counters");
        assertThat(counters.has(name)).as("counter %s", name).isTrue();
        return counters.get(name).asLong();
    }

    static byte[] pattern(final int length, final int seed) {
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 31 + seed + (i >>> 11));
        }
        return bytes;
    }

    @Override
    public void close() {
        controlA.close();
        controlB.close();
        a.close();
        b.close();
    }
}
