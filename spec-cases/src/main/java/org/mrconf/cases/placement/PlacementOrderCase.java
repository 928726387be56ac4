package org.mrconf.cases.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.RegionAccess;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.Psn;
import org.mrconf.wire.Opcode;

/**
 * Placement on arrival (clauses 7.1.1, 7.1.2, 7.2.1), observed the only way that tells a device without a reorder
 * buffer from one with it: the tester reads the DUT's memory through the control channel after each packet, while an
 * earlier PSN, an earlier offset of the same message or an earlier message is still missing. Several arrival orders
 * are tried, with PSN order and offset order both matching and differing.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Placement on arrival")
class PlacementOrderCase {
    /** Offsets are sent in these orders; segment 0 always comes last so that a gap stays open throughout. */
    private static final int[][] ORDERS = {{5, 4, 3, 2, 1, 0}, {2, 4, 1, 5, 3, 0}, {1, 2, 3, 4, 5, 0}};

    private static final int GUARD = 64;

    @Test
    @DisplayName("each WRITE segment is in memory before the missing first PSN of its path arrives")
    @Verifies("7.1.1")
    @Verifies("7.1.2")
    @Verifies("6.3.2")
    void writePlacedWhileAnEarlierPsnIsMissing(final Testbed testbed) throws Exception {
        final PeerConnection connection = testbed.connection();
        final int segment = connection.maxPayload(Opcode.WRITE);
        long address = Testbed.BASE + 4096;
        for (int o = 0; o < ORDERS.length; o++) {
            final int[] order = ORDERS[o];
            final byte[] data = Testbed.randomBytes(order.length * segment, 100 + o);
            final long msn = takeMsn(connection, 0);
            final long base = connection.nextPsn(0);
            for (int n = 0; n < order.length; n++) {
                final int index = order[n];
                // PSN follows the offset: the missing offset 0 is the missing first PSN of the path.
                testbed.peer()
                        .send(CaseSteps.segment(connection, Opcode.WRITE, 0, 0, msn, data, segment, index)
                                .psn(Psn.add(base, index))
                                .remoteAddress(address)
                                .remoteKey(testbed.key()));
                if (n < order.length - 1) {
                    CaseSteps.awaitBytes(
                            testbed,
                            testbed.key(),
                            address + (long) index * segment,
                            slice(data, index, segment),
                            "7.1.1: order " + o + ", segment " + index + " with PSN " + Psn.add(base, 0)
                                    + " still missing");
                }
            }
            connection.setNextPsn(0, Psn.add(base, order.length));
            CaseSteps.awaitBytes(testbed, testbed.key(), address, data, "7.1.1: order " + o + " complete");
            assertGuards(testbed, testbed.key(), address, data.length);
            address += data.length + 2 * GUARD;
        }
    }

    @Test
    @DisplayName("a WRITE segment whose PSN is in order is in memory before an earlier offset of its message arrives")
    @Verifies("7.1.2")
    @Verifies("7.1.1")
    void writePlacedWhileAnEarlierOffsetIsMissing(final Testbed testbed) throws Exception {
        final PeerConnection connection = testbed.connection();
        final int segment = connection.maxPayload(Opcode.WRITE);
        final long address = Testbed.BASE + 0x2_0000 + 13;
        final int[] order = {4, 2, 3, 1, 0};
        final byte[] data = Testbed.randomBytes(order.length * segment - 100, 7);
        final long msn = takeMsn(connection, 0);
        final long base = connection.nextPsn(0);
        for (int n = 0; n < order.length; n++) {
            final int index = order[n];
            // PSNs in arrival order: every packet but the first one is in PSN order, the offsets are not.
            final long psn = n == 0 ? Psn.add(base, order.length - 1) : Psn.add(base, n - 1);
            testbed.peer()
                    .send(CaseSteps.segment(connection, Opcode.WRITE, 0, 0, msn, data, segment, index)
                            .psn(psn)
                            .remoteAddress(address)
                            .remoteKey(testbed.key()));
            if (index != 0) {
                CaseSteps.awaitBytes(
                        testbed,
                        testbed.key(),
                        address + (long) index * segment,
                        slice(data, index, segment),
                        "7.1.2: segment " + index + " (PSN " + psn + ") before offset 0 arrived");
            }
        }
        connection.setNextPsn(0, Psn.add(base, order.length));
        CaseSteps.awaitBytes(testbed, testbed.key(), address, data, "7.1.1: the whole message");
        assertGuards(testbed, testbed.key(), address, data.length);
    }

    @Test
    @DisplayName(
            "segments and messages arriving in order on their own path are placed while another path's are missing")
    @Verifies("7.1.2")
    @Verifies("7.1.1")
    void placedWhileAnotherPathsPacketsAreMissing(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 2, 1)) {
            final PeerConnection connection = testbed.connection();
            final int segment = connection.maxPayload(Opcode.WRITE);
            // Message 0: segment 0 on path 0 (held back), segment 1 on path 1 (sent, in order on path 1).
            final byte[] first = Testbed.randomBytes(2 * segment, 21);
            final long firstAddress = Testbed.BASE + 0x4_0000;
            final long msn0 = takeMsn(connection, 0);
            final long path0 = connection.nextPsn(0);
            testbed.peer()
                    .send(CaseSteps.segment(connection, Opcode.WRITE, 1, 0, msn0, first, segment, 1)
                            .psn(connection.nextPsn(1))
                            .remoteAddress(firstAddress)
                            .remoteKey(testbed.key()));
            connection.setNextPsn(1, Psn.add(connection.nextPsn(1), 1));
            CaseSteps.awaitBytes(
                    testbed,
                    testbed.key(),
                    firstAddress + segment,
                    slice(first, 1, segment),
                    "7.1.2: offset " + segment + " before offset 0 (on another path) arrived");

            // Message 1, all on path 1 in order, while message 0 is still incomplete.
            final byte[] second = Testbed.randomBytes(segment + 500, 22);
            final long secondAddress = Testbed.BASE + 0x6_0000;
            final long msn1 = takeMsn(connection, 0);
            for (int i = 0; i < 2; i++) {
                testbed.peer()
                        .send(CaseSteps.segment(connection, Opcode.WRITE, 1, 0, msn1, second, segment, i)
                                .psn(connection.nextPsn(1))
                                .remoteAddress(secondAddress)
                                .remoteKey(testbed.key()));
                connection.setNextPsn(1, Psn.add(connection.nextPsn(1), 1));
            }
            CaseSteps.awaitBytes(
                    testbed, testbed.key(), secondAddress, second, "7.1.2: message 1 while message 0 is incomplete");

            testbed.peer()
                    .send(CaseSteps.segment(connection, Opcode.WRITE, 0, 0, msn0, first, segment, 0)
                            .psn(path0)
                            .remoteAddress(firstAddress)
                            .remoteKey(testbed.key())
                            .ackRequest());
            connection.setNextPsn(0, Psn.add(path0, 1));
            CaseSteps.awaitBytes(testbed, testbed.key(), firstAddress, first, "7.1.1: message 0 once complete");
            assertGuards(testbed, testbed.key(), firstAddress, first.length);
            assertGuards(testbed, testbed.key(), secondAddress, second.length);
        }
    }

    @Test
    @DisplayName("a WRITE lands at remote address + message offset of the region its key names, and nowhere else")
    @Verifies("7.2.1")
    void writePlacedAtAddressPlusOffsetOfTheNamedRegion(final Testbed testbed) throws Exception {
        final long otherBase = Testbed.BASE + 4L * Testbed.REGION;
        final int otherLength = 256 * 1024;
        final long otherKey = testbed.control()
                .registerRegion(
                        otherBase,
                        otherLength,
                        EnumSet.of(RegionAccess.LOCAL_WRITE, RegionAccess.REMOTE_WRITE, RegionAccess.REMOTE_READ));
        final PeerConnection connection = testbed.connection();
        final int segment = connection.maxPayload(Opcode.WRITE);

        // A three-segment WRITE at an odd address of the second region, segments out of order.
        final byte[] data = Testbed.randomBytes(3 * segment - 7, 31);
        final long address = otherBase + 0x1000 + 3;
        final long msn = takeMsn(connection, 0);
        final long base = connection.nextPsn(0);
        for (final int index : new int[] {2, 0, 1}) {
            testbed.peer()
                    .send(CaseSteps.segment(connection, Opcode.WRITE, 0, 0, msn, data, segment, index)
                            .psn(Psn.add(base, index))
                            .remoteAddress(address)
                            .remoteKey(otherKey));
        }
        connection.setNextPsn(0, Psn.add(base, 3));
        CaseSteps.awaitBytes(testbed, otherKey, address, data, "7.2.1: the WRITE in the region its key names");
        assertGuards(testbed, otherKey, address, data.length);
        CaseSteps.assertBytes(
                testbed,
                testbed.key(),
                Testbed.BASE + 0x1000,
                CaseSteps.zeros(data.length + GUARD),
                "7.2.1: the other region, at the same offset, is untouched");

        // One byte at the very last address of the region, and one at its first.
        final byte[] last = {(byte) 0xA5};
        testbed.connection().sendNew(testbed.write(0, otherBase + otherLength - 1, otherKey, last), 0);
        final byte[] firstByte = {(byte) 0x5A};
        testbed.connection().sendNew(testbed.write(0, otherBase, otherKey, firstByte), 0);
        CaseSteps.awaitBytes(testbed, otherKey, otherBase + otherLength - 1, last, "7.2.1: the region's last byte");
        CaseSteps.awaitBytes(testbed, otherKey, otherBase, firstByte, "7.2.1: the region's first byte");
        CaseSteps.assertBytes(
                testbed,
                otherKey,
                otherBase + otherLength - 1 - GUARD,
                CaseSteps.zeros(GUARD),
                "7.2.1: bytes before the last one untouched");
    }

    private static long takeMsn(final PeerConnection connection, final int stream) {
        return connection.claimMsn(stream); // the case builds the segments itself
    }

    private static byte[] slice(final byte[] data, final int index, final int segment) {
        final int from = index * segment;
        return java.util.Arrays.copyOfRange(data, from, Math.min(data.length, from + segment));
    }

    /** The bytes just before and just after a placed message are still zero. */
    private static void assertGuards(final Testbed testbed, final long key, final long address, final int length)
            throws Exception {
        CaseSteps.assertBytes(
                testbed, key, address - GUARD, CaseSteps.zeros(GUARD), "7.2.1: nothing placed before the message");
        CaseSteps.assertBytes(
                testbed, key, address + length, CaseSteps.zeros(GUARD), "7.2.1: nothing placed after the message");
        assertThat(length).isPositive();
    }
}
