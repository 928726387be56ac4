package org.mrconf.cases.packet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.Drops;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Kind;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.DutCounters;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.WireConstants;

/**
 * Section 5 as the DUT checks what it receives: unknown opcodes, lengths, segments past their message, READ_REQUEST
 * fields, bad CRCs on every opcode, versions, and which counter a packet failing several checks lands in. Every
 * rejected packet must be dropped silently, counted once under the right counter, and change nothing: a correct
 * packet at the same PSN afterwards is placed.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Receive checks")
class ReceiveChecksCase {
    private static final int LENGTH = 256;

    @Test
    @DisplayName("packets of opcodes outside Table 5-2, even with a well-formed WRITE body, are dropped and counted")
    @Verifies("5.1.2")
    @Kind(Kind.Purpose.INVALID)
    void unknownOpcodesAreDropped(final Testbed testbed) throws Exception {
        Drops.assertAllDroppedSilently(
                testbed,
                "5.1.2",
                writesWith(
                        testbed,
                        new int[] {0x00, 0x06, 0x0F, 0x13, 0x80, 0xFF},
                        (write, opcode) -> write.rawU8(1, opcode),
                        DutCounters.RX_UNKNOWN_OPCODE));
    }

    @Test
    @DisplayName("packets whose length disagrees with their header (payload length field short or long, trailing"
            + " bytes, truncated below the header) are dropped and counted, for WRITE, SEND, READ_REQUEST, ACK, NACK and"
            + " PROBE; a READ_REQUEST's length is 56 bytes whatever its payload length field says")
    @Verifies("5.1.3")
    @Kind(Kind.Purpose.INVALID)
    void lengthMismatchesAreDropped(final Testbed testbed) throws Exception {
        Drops.assertAllDroppedSilently(
                testbed,
                "5.1.3",
                List.of(
                        inconsistentLength(write(testbed).payloadLengthField(LENGTH - 56)),
                        inconsistentLength(write(testbed).payloadLengthField(LENGTH + 8)),
                        inconsistentLength(write(testbed).padding(8)),
                        inconsistentLength(send(testbed, 0, LENGTH).payloadLengthField(16)),
                        Drops.rejected(
                                write(testbed).truncateTo(Opcode.WRITE.headerLength() + 3), DutCounters.RX_TRUNCATED),
                        Drops.rejected(
                                readRequest(testbed, 64).truncateTo(Opcode.READ_REQUEST.headerLength()),
                                DutCounters.RX_TRUNCATED),
                        inconsistentLength(readRequest(testbed, 64).padding(4)),
                        // Consistent with its own payload length field, but a READ_REQUEST's payload length counts as
                        // 0 (clause 5.1.3): a length error, not the field's invalid value.
                        inconsistentLength(
                                readRequest(testbed, 64).payloadLengthField(4).padding(4)),
                        inconsistentLength(ack(0).padding(4)),
                        inconsistentLength(PacketBuilder.nack(NackCode.REMOTE_ACCESS)
                                .connection(Testbed.DUT_CONNECTION)
                                .path(0)
                                .padding(4)),
                        inconsistentLength(PacketBuilder.probe()
                                .connection(Testbed.DUT_CONNECTION)
                                .path(0)
                                .ackRequest()
                                .padding(4))));
    }

    @Test
    @DisplayName("a segment running past its message length, by one byte or by 32-bit wrap-around, is dropped and"
            + " counted; a zero-length message is one empty packet and is accepted")
    @Verifies("5.2.2")
    @Kind(Kind.Purpose.INVALID)
    void segmentsPastTheirMessageAreDropped(final Testbed testbed) throws Exception {
        Drops.assertAllDroppedSilently(
                testbed,
                "5.2.2",
                List.of(
                        inconsistentLength(write(testbed).messageLength(LENGTH - 1)),
                        inconsistentLength(
                                write(testbed).messageLength(LENGTH + 64).messageOffset(65)),
                        inconsistentLength(write(testbed).messageLength(LENGTH).messageOffset(0xFFFF_FFF0L))));
        final int mark = testbed.peer().mark();
        final long psn = testbed.connection().nextPsn(0);
        testbed.connection().sendNew(testbed.write(0, Testbed.BASE, testbed.key(), new byte[0]), 0);
        testbed.peer().await(mark, PacketMatcher.expect().ack().path(0).covers(psn), Testbed.WAIT);
    }

    @Test
    @DisplayName("a READ_REQUEST with a non-zero message offset or payload length is dropped and counted, and a correct"
            + " one afterwards is answered")
    @Verifies("5.2.5")
    @Kind(Kind.Purpose.INVALID)
    void malformedReadRequestsAreDropped(final Testbed testbed) throws Exception {
        Drops.assertAllDroppedSilently(
                testbed,
                "5.2.5",
                List.of(
                        Drops.rejected(readRequest(testbed, 64).messageOffset(8), DutCounters.RX_INVALID_FIELD),
                        Drops.rejected(readRequest(testbed, 64).payloadLengthField(16), DutCounters.RX_INVALID_FIELD)));

        final int mark = testbed.peer().mark();
        testbed.connection().sendNew(readRequest(testbed, 64), 0);
        testbed.peer().await(mark, PacketMatcher.expect().data().opcode(Opcode.READ_RESPONSE), Testbed.WAIT);
    }

    @Test
    @DisplayName("a bad CRC32C is dropped silently and counted on WRITE, SEND, READ_REQUEST, ACK and PROBE; a bad-CRC"
            + " ACK is counted")
    @Verifies("5.6.2")
    @Kind(Kind.Purpose.INVALID)
    void badCrcIsDroppedOnEveryOpcode(final Testbed testbed) throws Exception {
        testbed.control()
                .postReceive(new WorkRequest(Testbed.DUT_CONNECTION, 0, 61, testbed.key(), Testbed.BASE + 8192, 512));
        Drops.assertAllDroppedSilently(
                testbed,
                "5.6.2",
                List.of(
                        Drops.rejected(write(testbed).badCrc(), DutCounters.RX_BAD_CRC),
                        Drops.rejected(send(testbed, 9, 64).rsn(0).badCrc(), DutCounters.RX_BAD_CRC),
                        Drops.rejected(readRequest(testbed, 64).badCrc(), DutCounters.RX_BAD_CRC),
                        Drops.rejected(
                                PacketBuilder.probe()
                                        .connection(Testbed.DUT_CONNECTION)
                                        .path(0)
                                        .psn(0)
                                        .transmitTimestamp(5)
                                        .ackRequest()
                                        .badCrc(),
                                DutCounters.RX_BAD_CRC)));
        final Map<String, Long> before = testbed.counters();
        final int mark = testbed.peer().mark();
        testbed.peer().send(ack(1).badCrc());
        testbed.peer().assertNone(mark, PacketMatcher.of("anything", p -> true), Testbed.QUIET);
        assertThat(testbed.grew(before, DutCounters.RX_BAD_CRC))
                .as("5.6.2: bad-CRC ACK counted")
                .isEqualTo(1);
    }

    @Test
    @DisplayName("every minor version of major 1 is accepted; major versions 0, 2 and 15 are dropped and counted")
    @Verifies("5.6.3")
    void versionsAreHandled(final Testbed testbed) throws Exception {
        for (final int minor : new int[] {1, 2, 9, 15}) {
            final byte[] data = Testbed.randomBytes(64, minor);
            final int mark = testbed.peer().mark();
            final long psn = testbed.connection().nextPsn(0);
            testbed.connection()
                    .sendNew(
                            testbed.write(0, Testbed.BASE + 64L * minor, testbed.key(), data)
                                    .version(WireConstants.VERSION_1_0 | minor),
                            0);
            testbed.peer().await(mark, PacketMatcher.expect().ack().path(0).covers(psn), Testbed.WAIT);
            assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE + 64L * minor, 64))
                    .as("5.6.3: version 1.%d accepted", minor)
                    .isEqualTo(data);
        }
        testbed.control().writeRegion(testbed.key(), Testbed.BASE, new byte[2048]);
        Drops.assertAllDroppedSilently(
                testbed,
                "5.6.3",
                writesWith(
                        testbed,
                        new int[] {0, 2, 15},
                        (write, major) -> write.version(major << 4),
                        DutCounters.RX_UNSUPPORTED_VERSION));
    }

    @Test
    @DisplayName("a packet failing several checks is counted under the first in the order of 5.6.4")
    @Verifies("5.6.4")
    @Kind(Kind.Purpose.INVALID)
    void firstFailedCheckCounts(final Testbed testbed) throws Exception {
        Drops.assertAllDroppedSilently(
                testbed,
                "5.6.4",
                List.of(
                        Drops.rejected(write(testbed).version(0x20).rawU8(1, 0x77), DutCounters.RX_UNSUPPORTED_VERSION),
                        Drops.rejected(write(testbed).version(0x20).badCrc(), DutCounters.RX_UNSUPPORTED_VERSION),
                        Drops.rejected(write(testbed).rawU8(1, 0x77).badCrc(), DutCounters.RX_UNKNOWN_OPCODE),
                        Drops.rejected(
                                write(testbed)
                                        .truncateTo(Opcode.WRITE.headerLength())
                                        .badCrc(),
                                DutCounters.RX_TRUNCATED),
                        Drops.rejected(
                                write(testbed).payloadLengthField(LENGTH - 8).badCrc(), DutCounters.RX_BAD_CRC),
                        Drops.rejected(
                                readRequest(testbed, 64).messageOffset(4).connection(Testbed.DUT_CONNECTION + 3),
                                DutCounters.RX_INVALID_FIELD),
                        inconsistentLength(write(testbed).messageLength(8).connection(Testbed.DUT_CONNECTION + 3)),
                        Drops.rejected(write(testbed).path(9), DutCounters.RX_INVALID_PATH)));
    }

    /** A packet the DUT must drop and count as one of an inconsistent length. */
    private static Drops.Rejected inconsistentLength(final PacketBuilder packet) {
        return Drops.rejected(packet, DutCounters.RX_INCONSISTENT_LENGTH);
    }

    /** One {@link #write} per value, each changed by {@code change} with it, all counted under {@code counter}. */
    private static List<Drops.Rejected> writesWith(
            final Testbed testbed,
            final int[] values,
            final BiFunction<PacketBuilder, Integer, PacketBuilder> change,
            final String counter) {
        final List<Drops.Rejected> packets = new ArrayList<>();
        for (final int value : values) {
            packets.add(Drops.rejected(change.apply(write(testbed), value), counter));
        }
        return packets;
    }

    /** A SEND on stream 0 of {@code length} zero bytes, at path 0's next PSN (not consumed). */
    private static PacketBuilder send(final Testbed testbed, final long msn, final int length) {
        return testbed.connection().packet(Opcode.SEND, 0).stream(0)
                .msn(msn)
                .messageLength(length)
                .payload(new byte[length]);
    }

    /** An ACK to the DUT's connection on {@code path} with cumulative PSN 0. */
    private static PacketBuilder ack(final int path) {
        return PacketBuilder.ack().connection(Testbed.DUT_CONNECTION).path(path).cumulativePsn(0);
    }

    @Test
    @DisplayName(
            "a READ_REQUEST whose message offset or payload length field passes its message length is dropped as an"
                    + " invalid field, not as a segment past its message, and a correct one afterwards is answered")
    @Verifies("5.2.2")
    @Kind(Kind.Purpose.INVALID)
    void readRequestFieldsPastItsLengthAreInvalidFields(final Testbed testbed) throws Exception {
        org.mrconf.cases.TesterMessages.requireProfile(testbed, org.mrconf.catalogue.Profile.READ);
        Drops.assertAllDroppedSilently(
                testbed,
                "5.2.2",
                List.of(
                        Drops.rejected(readRequest(testbed, 64).messageOffset(100), DutCounters.RX_INVALID_FIELD),
                        Drops.rejected(readRequest(testbed, 64).payloadLengthField(100), DutCounters.RX_INVALID_FIELD),
                        Drops.rejected(
                                readRequest(testbed, 64).messageOffset(60).payloadLengthField(16),
                                DutCounters.RX_INVALID_FIELD)));
        final int mark = testbed.peer().mark();
        testbed.connection().sendNew(readRequest(testbed, 64), 0);
        testbed.peer().await(mark, PacketMatcher.expect().data().opcode(Opcode.READ_RESPONSE), Testbed.WAIT);
    }

    /** A WRITE of {@value #LENGTH} zero bytes to the region's start at path 0's next PSN (not consumed). */
    private static PacketBuilder write(final Testbed testbed) {
        return testbed.write(0, Testbed.BASE, testbed.key(), Testbed.randomBytes(LENGTH, 77));
    }

    private static PacketBuilder readRequest(final Testbed testbed, final int length) {
        return testbed.connection().packet(Opcode.READ_REQUEST, 0).stream(0)
                .msn(testbed.connection().takeMsn(0))
                .messageLength(length)
                .remoteAddress(Testbed.BASE)
                .remoteKey(testbed.key())
                .sinkHandle(0x99)
                .transmitTimestamp(3)
                .ackRequest();
    }
}
