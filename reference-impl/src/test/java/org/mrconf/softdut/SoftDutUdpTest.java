package org.mrconf.softdut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mrconf.agent.Requests.args;
import static org.mrconf.agent.Requests.hex;
import static org.mrconf.softdut.DutPair.A_ID;
import static org.mrconf.softdut.DutPair.BASE;
import static org.mrconf.softdut.DutPair.B_ID;
import static org.mrconf.softdut.DutPair.awaitCompletion;
import static org.mrconf.softdut.DutPair.pattern;
import static org.mrconf.softdut.DutPair.readRegion;
import static org.mrconf.softdut.DutPair.wrId;
import static org.mrconf.softdut.DutPair.writeRegion;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Two soft DUTs over real UDP on 127.0.0.1, driven only through the control protocol over TCP. */
class SoftDutUdpTest {
    private static final int MIB = 1 << 20;

    private DutPair pair;

    @BeforeEach
    void setUp() throws IOException {
        pair = new DutPair().connect();
    }

    @AfterEach
    void tearDown() {
        pair.close();
    }

    @Test
    void shouldWriteOneMebibyteSendIntoAPostedReceiveAndReadBack() {
        final byte[] message = pattern(MIB, 7);
        writeRegion(pair.controlA, pair.keyA, BASE, message);

        pair.controlA.ok(
                "post_write",
                args(
                        "connection",
                        A_ID,
                        "stream",
                        0,
                        "key",
                        pair.keyA,
                        "address",
                        hex(BASE),
                        "length",
                        MIB,
                        "remoteAddress",
                        hex(BASE),
                        "remoteKey",
                        pair.keyB,
                        "wrId",
                        1));
        final JsonNode write = awaitCompletion(pair.controlA, wrId(1));
        assertThat(write.get("type").asText()).isEqualTo("WRITE");
        assertThat(write.get("status").asText()).isEqualTo("SUCCESS");
        assertThat(write.get("length").asLong()).isEqualTo(MIB);
        assertThat(readRegion(pair.controlB, pair.keyB, BASE, MIB)).isEqualTo(message);

        pair.controlB.ok(
                "post_receive",
                args(
                        "connection",
                        B_ID,
                        "stream",
                        1,
                        "key",
                        pair.keyB,
                        "address",
                        hex(BASE + MIB),
                        "length",
                        65536,
                        "wrId",
                        20));
        pair.controlA.ok(
                "post_send",
                args(
                        "connection",
                        A_ID,
                        "stream",
                        1,
                        "key",
                        pair.keyA,
                        "address",
                        hex(BASE + 1000),
                        "length",
                        50_000,
                        "wrId",
                        2));
        assertThat(awaitCompletion(pair.controlA, wrId(2)).get("status").asText())
                .isEqualTo("SUCCESS");
        final JsonNode receive = awaitCompletion(pair.controlB, wrId(20));
        assertThat(receive.get("type").asText()).isEqualTo("RECEIVE");
        assertThat(receive.get("status").asText()).isEqualTo("SUCCESS");
        assertThat(receive.get("length").asLong()).isEqualTo(50_000);
        assertThat(receive.get("stream").asInt()).isEqualTo(1);
        assertThat(readRegion(pair.controlB, pair.keyB, BASE + MIB, 50_000))
                .isEqualTo(java.util.Arrays.copyOfRange(message, 1000, 51_000));

        final byte[] remote = pattern(300_000, 99);
        writeRegion(pair.controlB, pair.keyB, BASE + MIB + 65536, remote);
        pair.controlA.ok(
                "post_read",
                args(
                        "connection",
                        A_ID,
                        "stream",
                        0,
                        "key",
                        pair.keyA,
                        "address",
                        hex(BASE + MIB),
                        "length",
                        300_000,
                        "remoteAddress",
                        hex(BASE + MIB + 65536),
                        "remoteKey",
                        pair.keyB,
                        "wrId",
                        3));
        final JsonNode read = awaitCompletion(pair.controlA, wrId(3));
        assertThat(read.get("type").asText()).isEqualTo("READ");
        assertThat(read.get("status").asText()).isEqualTo("SUCCESS");
        assertThat(readRegion(pair.controlA, pair.keyA, BASE + MIB, 300_000)).isEqualTo(remote);
    }

    @Test
    void shouldDeliverImmediateDataAndCountTraffic() {
        pair.controlA.ok(
                "post_write",
                args(
                        "connection",
                        A_ID,
                        "stream",
                        0,
                        "key",
                        pair.keyA,
                        "address",
                        hex(BASE),
                        "length",
                        20_000,
                        "remoteAddress",
                        hex(BASE),
                        "remoteKey",
                        pair.keyB,
                        "wrId",
                        4,
                        "immediate",
                        0xCAFEL));

        assertThat(awaitCompletion(pair.controlA, wrId(4)).get("type").asText()).isEqualTo("WRITE_WITH_IMMEDIATE");
        final JsonNode landed =
                awaitCompletion(pair.controlB, c -> c.get("type").asText().equals("RECEIVE_IMMEDIATE"));
        assertThat(landed.get("immediate").asLong()).isEqualTo(0xCAFEL);
        assertThat(landed.get("length").asLong()).isEqualTo(20_000);
        assertThat(DutPair.counter(pair.controlA, "tx_data_packets")).isPositive();
        assertThat(DutPair.counter(pair.controlB, "rx_packets")).isPositive();
    }

    @Test
    void shouldSendEachPathFromTheSourcePortItReports() {
        final JsonNode paths =
                pair.controlA.ok("path_status", args("connection", A_ID)).get("paths");
        final Set<Integer> ports = new HashSet<>();
        paths.forEach(path -> ports.add(path.get("entropy").asInt()));

        assertThat(paths).hasSize(DutPair.PATHS);
        assertThat(ports).as("distinct entropy sockets per path").hasSize(DutPair.PATHS);
        assertThat(ports)
                .allSatisfy(port -> assertThat(port).isBetween(1024, 65535).isNotEqualTo(pair.a.udpPort()));
    }

    @Test
    void shouldRefuseASecondPortForTheSamePeerAddress() {
        final JsonNode response = pair.controlA.call(
                "create_connection",
                args(
                        "localId",
                        5,
                        "peerId",
                        6,
                        "peerAddress",
                        "127.0.0.1",
                        "peerPort",
                        pair.b.udpPort() + 1,
                        "paths",
                        1,
                        "streams",
                        1));

        assertThat(response.at("/error/code").asText()).isEqualTo("conflict");
        assertThat(pair.controlA
                        .call(
                                "create_connection",
                                args(
                                        "localId",
                                        5,
                                        "peerId",
                                        6,
                                        "peerAddress",
                                        "::1",
                                        "peerPort",
                                        4796,
                                        "paths",
                                        1,
                                        "streams",
                                        1))
                        .at("/error/code")
                        .asText())
                .isEqualTo("invalid_argument");
    }
}
