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
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.wire.WireConstants;

/**
 * Packets that must be dropped silently and counted: a bad CRC, an unknown opcode, an unknown major
 * version, a truncated packet. Each is checked three ways: the counter grew by one, nothing was placed,
 * and the DUT said nothing about it on the wire. A well-formed packet afterwards proves the DUT is fine.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Integrity and versions")
class IntegrityCase {

    @Test
    @DisplayName("a packet with a bad CRC32C is dropped silently and counted")
    @Verifies("5.6.1")
    @Verifies("5.6.2")
    void badCrcIsDroppedSilently(final Testbed testbed) throws Exception {
        assertDroppedSilently(
                testbed,
                testbed.write(0, Testbed.BASE, testbed.key(), payload()).badCrc(),
                DutCounters.RX_BAD_CRC);
    }

    @Test
    @DisplayName("a packet with an unknown opcode is dropped and counted")
    @Verifies("5.1.2")
    void unknownOpcodeIsDropped(final Testbed testbed) throws Exception {
        assertDroppedSilently(
                testbed,
                PacketBuilder.opcode(0x7E)
                        .connection(Testbed.DUT_CONNECTION)
                        .path(0)
                        .psn(0),
                DutCounters.RX_UNKNOWN_OPCODE);
    }

    @Test
    @DisplayName("a packet of an unknown major version is dropped and counted")
    @Verifies("5.6.3")
    void unknownMajorVersionIsDropped(final Testbed testbed) throws Exception {
        assertDroppedSilently(
                testbed,
                testbed.write(0, Testbed.BASE, testbed.key(), payload()).version(0x20),
                DutCounters.RX_UNSUPPORTED_VERSION);
    }

    @Test
    @DisplayName("a packet shorter than its header is dropped and counted")
    @Verifies("5.1.3")
    void truncatedPacketIsDropped(final Testbed testbed) throws Exception {
        assertDroppedSilently(
                testbed,
                testbed.write(0, Testbed.BASE, testbed.key(), payload()).truncateTo(30),
                DutCounters.RX_TRUNCATED);
    }

    @Test
    @DisplayName("a packet of a later minor version is accepted")
    @Verifies("5.6.3")
    void laterMinorVersionIsAccepted(final Testbed testbed) throws Exception {
        final byte[] data = payload();
        final int mark = testbed.peer().mark();

        Drops.assertPlaced(
                testbed,
                mark,
                0,
                testbed.write(0, Testbed.BASE, testbed.key(), data).version(WireConstants.VERSION_1_0 | 0x0F),
                Testbed.BASE,
                data,
                "5.6.3: a packet of version 1.15 is placed");
    }

    private static void assertDroppedSilently(final Testbed testbed, final PacketBuilder packet, final String counter)
            throws Exception {
        final var before = testbed.counters();
        final int mark = testbed.peer().mark();

        testbed.peer().send(packet);

        // Wait until the device has processed the packet (its counter moved) before judging its silence, so a
        // slow device is never taken for a silent one; then watch for an answer for longer than its ACK delay.
        // Only ACKs and NACKs are answers: a probe or other traffic of the device's own timers is not about it.
        testbed.awaitGrowth(before, counter, 1);
        testbed.peer()
                .assertNone(
                        mark,
                        PacketMatcher.expect().ack().or(PacketMatcher.expect().nack()),
                        testbed.quiet());
        assertThat(testbed.grew(before, counter)).as(counter).isEqualTo(1);
        assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE, 64))
                .containsOnly(0);
        // The DUT still works: a correct packet at the same PSN is placed and acknowledged.
        final byte[] data = payload();
        Drops.assertPlaced(
                testbed,
                mark,
                0,
                testbed.write(0, Testbed.BASE, testbed.key(), data),
                Testbed.BASE,
                data,
                "a correct packet afterwards is placed");
    }

    private static byte[] payload() {
        return Testbed.randomBytes(256, 7);
    }
}
