package org.mrconf.cases.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.Drops;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.DutCounters;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.NackPacket;

/**
 * Remote access is checked before a byte moves: a wrong key, a range outside the region and an
 * invalidated region are each refused with the NACK the spec names, and the region is left untouched;
 * packets for an unknown connection are dropped and counted; a duplicate is acknowledged but not placed.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Protection")
class ProtectionCase {

    @Test
    @DisplayName("a WRITE with a key that names no region is refused with REMOTE_ACCESS")
    @Verifies("11.1.1")
    @Verifies("9.1.1")
    @Verifies("9.1.3")
    @Verifies("5.4.1")
    void wrongKeyIsRefused(final Testbed testbed) throws Exception {
        assertRefused(testbed, testbed.key() ^ 0x5A5A, Testbed.BASE, NackCode.REMOTE_ACCESS);
    }

    @Test
    @DisplayName("a WRITE that runs past the region's end is refused with BOUNDS")
    @Verifies("11.1.3")
    @Verifies("9.1.1")
    @Verifies("9.1.3")
    void outOfBoundsIsRefused(final Testbed testbed) throws Exception {
        assertRefused(testbed, testbed.key(), Testbed.BASE + Testbed.REGION - 100, NackCode.BOUNDS);
    }

    @Test
    @DisplayName("a WRITE into an invalidated region is refused with REMOTE_ACCESS")
    @Verifies("11.1.4")
    void invalidatedRegionIsRefused(final Testbed testbed) throws Exception {
        testbed.control().invalidateRegion(testbed.key());
        final long other = testbed.control()
                .registerRegion(
                        Testbed.BASE + 2L * Testbed.REGION,
                        4096,
                        java.util.EnumSet.of(org.mrconf.dut.RegionAccess.LOCAL_WRITE));
        final int mark = testbed.peer().mark();

        testbed.connection().sendNew(testbed.write(0, Testbed.BASE, testbed.key(), bytes()), 0);

        final NackPacket nack = awaitNack(testbed, mark);
        assertThat(nack.code()).isEqualTo(NackCode.REMOTE_ACCESS);
        assertThat(testbed.control().readRegion(other, Testbed.BASE + 2L * Testbed.REGION, 256))
                .containsOnly(0);
    }

    @Test
    @DisplayName("a packet for an unknown connection is dropped and counted")
    @Verifies("11.2.1")
    void unknownConnectionIsDropped(final Testbed testbed) throws Exception {
        final var before = testbed.counters();
        final int mark = testbed.peer().mark();

        testbed.peer()
                .send(testbed.write(0, Testbed.BASE, testbed.key(), bytes()).connection(0x0BAD_0BADL));

        testbed.awaitGrowth(before, DutCounters.RX_UNKNOWN_CONNECTION, 1);
        testbed.peer()
                .assertNone(
                        mark,
                        PacketMatcher.expect().ack().or(PacketMatcher.expect().nack(NackCode.REMOTE_ACCESS)),
                        testbed.quiet());
        assertThat(testbed.grew(before, DutCounters.RX_UNKNOWN_CONNECTION)).isEqualTo(1);
        assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE, 256))
                .containsOnly(0);
        // The drop left the real connection alone: its first packet is placed and acknowledged.
        final byte[] data = bytes();
        Drops.assertPlaced(
                testbed,
                mark,
                0,
                testbed.write(0, Testbed.BASE, testbed.key(), data),
                Testbed.BASE,
                data,
                "11.2.1: the real connection's first packet is placed");
    }

    @Test
    @DisplayName("a duplicate is acknowledged and not placed again")
    @Verifies("6.5.1")
    void duplicateIsAcknowledgedNotPlaced(final Testbed testbed) throws Exception {
        final var original = testbed.connection().sendNew(testbed.write(0, Testbed.BASE, testbed.key(), bytes()), 0);
        testbed.peer().await(0, PacketMatcher.expect().ack().path(0).covers(original.psn()), Testbed.WAIT);
        final byte[] later = Testbed.randomBytes(256, 99);
        testbed.control().writeRegion(testbed.key(), Testbed.BASE, later);
        final var before = testbed.counters();
        final int mark = testbed.peer().mark();

        testbed.connection().resend(original);

        testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .ack()
                                .connection(Testbed.TESTER_CONNECTION)
                                .path(0)
                                .covers(original.psn()),
                        Testbed.WAIT);
        // The ACK seen may be a late one for the original (ACK delay, coalescing): judge placement and the counter
        // only once the device has counted the duplicate, never on the first ACK that happens to come.
        testbed.awaitGrowth(before, DutCounters.RX_DUPLICATE, 1);
        assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE, later.length))
                .as("the duplicate must not overwrite what the application wrote since")
                .isEqualTo(later);
        assertThat(testbed.grew(before, DutCounters.RX_DUPLICATE)).isEqualTo(1);
    }

    private static void assertRefused(
            final Testbed testbed, final long remoteKey, final long address, final NackCode code) throws Exception {
        final int mark = testbed.peer().mark();
        final var segment = testbed.connection().sendNew(testbed.write(1, address, remoteKey, bytes()), 1);

        final NackPacket nack = awaitNack(testbed, mark);
        assertThat(nack.code()).isEqualTo(code);
        assertThat(nack.header().pathId()).isEqualTo(1);
        assertThat(nack.header().psn()).isEqualTo(segment.psn());
        assertThat(nack.streamId()).isZero();
        assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE + Testbed.REGION - 256, 256))
                .containsOnly(0);
        assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE, 256))
                .containsOnly(0);
    }

    private static NackPacket awaitNack(final Testbed testbed, final int mark) {
        final ReceivedPacket received = testbed.peer()
                .await(mark, PacketMatcher.expect().nack().connection(Testbed.TESTER_CONNECTION), Testbed.WAIT);
        return received.nack().orElseThrow();
    }

    private static byte[] bytes() {
        return Testbed.randomBytes(256, 5);
    }
}
