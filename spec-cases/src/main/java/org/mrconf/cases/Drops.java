package org.mrconf.cases;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apiguardian.api.API;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;

/**
 * The check every "drop and count" clause shares: the DUT sends nothing about the packet, places nothing, and
 * counts it under the named counter exactly once; then a correct WRITE at the same PSN proves the DUT still works
 * and that the dropped packet changed no receive state.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Drops {
    private Drops() {}

    /** A packet the DUT must drop, and the counter it must count it under. */
    public record Rejected(PacketBuilder packet, String counter) {}

    /** One packet the DUT must drop. */
    public static Rejected rejected(final PacketBuilder packet, final String counter) {
        return new Rejected(packet, counter);
    }

    /**
     * Sends {@code packet} (built by the case for path 0 at its next PSN, into the testbed's region at
     * {@link Testbed#BASE}) and checks it is dropped silently and counted as {@code counter}.
     */
    public static void assertDroppedSilently(
            final Testbed testbed, final PacketBuilder packet, final String counter, final String clause)
            throws Exception {
        assertAllDroppedSilently(testbed, clause, List.of(rejected(packet, counter)));
    }

    /**
     * Sends every packet of {@code packets} (each built for path 0 at its next PSN, into the region at
     * {@link Testbed#BASE}), then watches once: nothing is sent back, nothing placed, and each counter grew by the
     * number of packets that name it. One watch for the lot keeps the case short; a packet counted under the wrong
     * counter still shows, as two counters off by one.
     */
    public static void assertAllDroppedSilently(
            final Testbed testbed, final String clause, final List<Rejected> packets) throws Exception {
        final Map<String, Long> before = testbed.counters();
        final int mark = testbed.peer().mark();
        final Map<String, Long> expected = new TreeMap<>();
        for (final Rejected packet : packets) {
            testbed.peer().send(packet.packet());
            expected.merge(packet.counter(), 1L, Long::sum);
        }

        testbed.peer().assertNone(mark, PacketMatcher.of("anything", p -> true), Testbed.QUIET);
        final Map<String, Long> counted = new TreeMap<>();
        for (final String counter : expected.keySet()) {
            counted.put(counter, testbed.grew(before, counter));
        }
        assertThat(counted).as("%s: counted, by counter", clause).isEqualTo(expected);
        assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE, 512))
                .as("%s: nothing placed", clause)
                .containsOnly(0);
        assertStillWorks(testbed, mark, clause);
    }

    /** A correct WRITE at path 0's next PSN is placed and acknowledged: the DUT is alive and its state unchanged. */
    public static void assertStillWorks(final Testbed testbed, final int mark, final String clause) throws Exception {
        final byte[] data = Testbed.randomBytes(256, 7);
        assertPlaced(
                testbed,
                mark,
                0,
                testbed.write(0, Testbed.BASE, testbed.key(), data),
                Testbed.BASE,
                data,
                clause + ": a correct packet afterwards is placed");
        testbed.control().writeRegion(testbed.key(), Testbed.BASE, new byte[512]);
    }

    /**
     * Sends {@code write} (a WRITE the case built of {@code data} to {@code address}) as the next new packet of
     * {@code path}, waits for the DUT's ACK that covers it (seen after {@code mark}) and checks that {@code data} was
     * placed; {@code what} names the check in a failure.
     */
    public static void assertPlaced(
            final Testbed testbed,
            final int mark,
            final int path,
            final PacketBuilder write,
            final long address,
            final byte[] data,
            final String what)
            throws Exception {
        final long psn = testbed.connection().sendNew(write, path).psn();
        testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .ack()
                                .connection(Testbed.TESTER_CONNECTION)
                                .path(path)
                                .covers(psn),
                        Testbed.WAIT);
        assertThat(testbed.control().readRegion(testbed.key(), address, data.length))
                .as(what)
                .isEqualTo(data);
    }
}
