package org.mrconf.softdut;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetAddress;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.mrconf.agent.AgentConfig;
import org.mrconf.agent.Requests;
import org.mrconf.net.NanoClock;
import org.mrconf.transport.EndpointConfig;

/**
 * Under memory pressure the soft DUT's loop drops received packets unprocessed, counts them, and keeps
 * answering its control channel; when the pressure goes, it handles packets again.
 */
class DutLoopMemoryPressureTest {
    private volatile double fullness = 0.99;

    @Test
    void shouldDropAndCountPacketsButKeepAnsweringWhileTheHeapIsFull() throws Exception {
        final InMemoryNetwork network =
                new InMemoryNetwork((packet, destination, destinationPort, sourcePort, ecn) -> {});
        final DutLoop loop = new DutLoop(
                network,
                EndpointConfig.defaults(),
                AgentConfig.builder().access(null, null),
                NanoClock.system(),
                () -> fullness);
        final Thread thread = new Thread(loop, "pressure-test-loop");
        thread.setDaemon(true);
        thread.start();
        try {
            for (int i = 0; i < 100; i++) {
                network.offer(new byte[] {1, 2, 3}, InetAddress.getLoopbackAddress(), 50000, 0);
            }
            loop.wake();
            assertThat(answer(loop, "hello").get("ok").asBoolean()).isTrue();
            awaitCounter(loop, "x_memory_pressure_drops", 100);
            assertThat(counter(loop, "rx_packets"))
                    .as("nothing reached the endpoint")
                    .isZero();

            fullness = 0.1;
            Thread.sleep(2 * DutLoop.PRESSURE_HOLD_NS / 1_000_000);
            network.offer(new byte[] {1, 2, 3}, InetAddress.getLoopbackAddress(), 50000, 0);
            loop.wake();
            awaitCounter(loop, "rx_packets", 1);
        } finally {
            loop.stop();
            assertThat(loop.stopped().await(5, TimeUnit.SECONDS)).isTrue();
        }
    }

    private static JsonNode answer(final DutLoop loop, final String op) throws Exception {
        return Requests.parse(loop.submit(Requests.line(1, op, Requests.args())).get(5, TimeUnit.SECONDS));
    }

    private static long counter(final DutLoop loop, final String name) throws Exception {
        return answer(loop, "read_counters").at("/result/counters/" + name).asLong();
    }

    private static void awaitCounter(final DutLoop loop, final String name, final long atLeast) throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (counter(loop, name) < atLeast) {
            assertThat(System.nanoTime() - deadline)
                    .as("%s reaches %d", name, atLeast)
                    .isNegative();
            Thread.sleep(10);
        }
    }
}
