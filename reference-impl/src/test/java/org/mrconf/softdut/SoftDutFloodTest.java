package org.mrconf.softdut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mrconf.agent.Requests.args;
import static org.mrconf.agent.Requests.hex;
import static org.mrconf.softdut.DutPair.A_ID;
import static org.mrconf.softdut.DutPair.BASE;
import static org.mrconf.softdut.DutPair.awaitCompletion;
import static org.mrconf.softdut.DutPair.counter;
import static org.mrconf.softdut.DutPair.pattern;
import static org.mrconf.softdut.DutPair.readRegion;
import static org.mrconf.softdut.DutPair.wrId;
import static org.mrconf.softdut.DutPair.writeRegion;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A soft DUT keeps serving its peer and its control channel while garbage floods its UDP port. */
class SoftDutFloodTest {
    private static final int FLOOD_DATAGRAMS = 100_000;
    private static final int MESSAGE_BYTES = 1 << 20;
    private static final long SEED = 42;

    @Test
    void shouldCompleteATransferAndCountTheDropsDuringAFloodOfMalformedDatagrams() throws Exception {
        try (DutPair pair = new DutPair().connect()) {
            final byte[] message = pattern(MESSAGE_BYTES, 3);
            writeRegion(pair.controlA, pair.keyA, BASE, message);
            final CountDownLatch flooding = new CountDownLatch(1);
            final CompletableFuture<Integer> flood =
                    CompletableFuture.supplyAsync(() -> flood(pair.b.udpPort(), flooding));
            assertThat(flooding.await(DutPair.PATIENCE_MS, TimeUnit.MILLISECONDS))
                    .isTrue();

            for (int round = 0; round < 3; round++) {
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
                                MESSAGE_BYTES,
                                "remoteAddress",
                                hex(BASE + round),
                                "remoteKey",
                                pair.keyB,
                                "wrId",
                                round));
                assertThat(awaitCompletion(pair.controlA, wrId(round))
                                .get("status")
                                .asText())
                        .isEqualTo("SUCCESS");
                assertThat(counter(pair.controlB, "rx_packets")).isPositive();
            }
            assertThat(flood.get(DutPair.PATIENCE_MS, TimeUnit.MILLISECONDS)).isEqualTo(FLOOD_DATAGRAMS);

            assertThat(readRegion(pair.controlB, pair.keyB, BASE + 2, MESSAGE_BYTES))
                    .isEqualTo(message);
            assertThat(counter(pair.controlB, "rx_truncated"))
                    .as("short datagrams dropped and counted")
                    .isPositive();
            assertThat(counter(pair.controlB, "rx_unsupported_version"))
                    .as("version 3 datagrams")
                    .isPositive();
            assertThat(counter(pair.controlB, "rx_unknown_opcode")
                            + counter(pair.controlB, "rx_bad_crc")
                            + counter(pair.controlB, "rx_truncated"))
                    .isLessThanOrEqualTo(counter(pair.controlB, "rx_packets"));
            assertThat(counter(pair.controlB, "x_loop_errors")).isZero();
        }
    }

    /** Sends the flood from an ephemeral port on 127.0.0.1; counts down {@code started} after 1,000. */
    private static int flood(final int port, final CountDownLatch started) {
        final SplittableRandom random = new SplittableRandom(SEED);
        final InetSocketAddress target = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        int sent = 0;
        try (DatagramChannel channel = DatagramChannel.open()) {
            channel.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            final ByteBuffer buffer = ByteBuffer.allocate(256);
            for (; sent < FLOOD_DATAGRAMS; sent++) {
                buffer.clear();
                final int kind = sent % 3;
                final int length = kind == 0 ? random.nextInt(20) : 20 + random.nextInt(200);
                for (int i = 0; i < length; i++) {
                    buffer.put((byte) random.nextInt(256));
                }
                if (kind == 1 && length > 0) {
                    buffer.put(0, (byte) 0x30);
                } else if (kind == 2) {
                    buffer.put(0, (byte) 0x10);
                }
                buffer.flip();
                channel.send(buffer, target);
                if (sent == 1_000) {
                    started.countDown();
                }
            }
        } catch (final java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return sent;
    }
}
