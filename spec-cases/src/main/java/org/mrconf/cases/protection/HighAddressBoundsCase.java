package org.mrconf.cases.protection;

import static org.mrconf.cases.TesterMessages.assertMemory;
import static org.mrconf.cases.TesterMessages.awaitNack;
import static org.mrconf.cases.TesterMessages.send;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Kind;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.RegionAccess;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.Opcode;

/**
 * The bounds check of clause 11.1.3 far from the small addresses most tests use: a message whose address lies 2^31,
 * 2^32 or 2^33 bytes above its region's base (an offset that a 32-bit computation wraps back inside the region), and
 * regions whose base sits across 2^63 (where a signed comparison turns) or whose end is 2^64 itself (where the end
 * wraps to 0). Clause 11.1.3 asks the check to be "computed without overflow" over 64-bit addresses, so each range
 * is judged exactly: one ending at the region's end is in bounds, one a byte further is not. Every refusal is read
 * back in memory, and every region has a positive control, so a device that refuses everything cannot pass.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Bounds at high addresses")
class HighAddressBoundsCase {
    /** A pattern the refused messages must leave in place: "untouched" is not just "still zero". */
    private static final byte[] BEFORE = Testbed.randomBytes(256, 131);

    /** The message of every probe: one packet of 64 bytes. */
    private static final byte[] DATA = Testbed.randomBytes(64, 132);

    /** The length of each high region. */
    private static final int HIGH_LENGTH = 4096;

    @Test
    @DisplayName("a WRITE 2^31, 2^32 or 2^33 bytes above its region's base is refused with BOUNDS and places nothing")
    @Verifies("11.1.3")
    @Kind(Kind.Purpose.INVALID)
    void writeFarAboveTheBaseIsRefused(final Testbed testbed) throws Exception {
        final long key = testbed.key();
        testbed.control().writeRegion(key, Testbed.BASE, BEFORE);
        for (final long above : new long[] {1L << 31, 1L << 32, (1L << 32) + 0x40, 1L << 33, (1L << 32) - 0x40}) {
            assertRefused(testbed, key, Testbed.BASE + above, Testbed.BASE);
            assertMemory(
                    testbed,
                    "11.1.3: a WRITE 0x" + Long.toHexString(above) + " bytes above the base places nothing",
                    key,
                    Testbed.BASE,
                    BEFORE);
        }
        if (testbed.profile().claims(Profile.READ)) {
            final int mark = testbed.peer().mark();
            final long sink = 0x5300 + mark;
            final var request = testbed.connection().readRequest(0, Testbed.BASE + (1L << 32), key, 64, sink, 1);
            awaitNack(
                    testbed,
                    mark,
                    NackCode.BOUNDS,
                    List.of(PacketBuilder.from(
                            org.mrconf.wire.Packet.fromBytes(request.sent().bytes()))));
            testbed.peer()
                    .assertNone(
                            mark,
                            PacketMatcher.expect()
                                    .data()
                                    .opcode(Opcode.READ_RESPONSE)
                                    .sinkHandle(sink),
                            Testbed.QUIET);
        }
        // The positive control: the same region takes a WRITE at its base.
        assertAccepted(testbed, key, Testbed.BASE + 0x1000);
    }

    @Test
    @DisplayName("regions across 2^63 and ending at 2^64: a range ending at the end is in bounds, one byte more is not")
    @Verifies("11.1.3")
    @Kind(Kind.Purpose.INVALID)
    void regionsAtHighBasesAreBoundedExactly(final Testbed testbed) throws Exception {
        // 0x7FFF_FFFF_FFFF_F800: the region runs across 2^63, where a signed comparison of addresses turns.
        // 0xFFFF_FFFF_FFFF_F000: the region's end is 2^64, which wraps to 0 in 64-bit arithmetic.
        // A device may refuse a region whose end is 2^64 itself (clause 11.1.3 says nothing of registration); the
        // page below it is tried then, where a wrapped end is still one message length away.
        final long[][] candidates = {{Long.MAX_VALUE - HIGH_LENGTH / 2 + 1}, {-HIGH_LENGTH, -2L * HIGH_LENGTH}};
        for (final long[] bases : candidates) {
            final long[] registered = firstRegistered(testbed, bases);
            final long base = registered[0];
            final long key = registered[1];
            final long end = base + HIGH_LENGTH; // 0 for the region at the top
            testbed.control().writeRegion(key, base, BEFORE);
            testbed.control().writeRegion(key, end - BEFORE.length, BEFORE);
            final String where = "the region at 0x" + Long.toHexString(base);
            // One byte past the end, one byte before the base, and 2^32 above the base.
            assertRefused(testbed, key, end - DATA.length + 1, base);
            assertRefused(testbed, key, base - 1, base);
            assertRefused(testbed, key, base + (1L << 32), base);
            assertMemory(testbed, "11.1.3: nothing placed at the start of " + where, key, base, BEFORE);
            assertMemory(testbed, "11.1.3: nothing placed at the end of " + where, key, end - BEFORE.length, BEFORE);
            // A message ending exactly at the end lies within the region, and one at its base too.
            assertAccepted(testbed, key, end - DATA.length);
            assertAccepted(testbed, key, base);
            // Above 2^63 a signed view of the addresses is negative: a range inside the region there is accepted.
            assertAccepted(testbed, key, base + HIGH_LENGTH / 2);
            testbed.control().invalidateRegion(key);
        }
    }

    /** Registers a region at the first of {@code bases} the device accepts; returns that base and its key. */
    private static long[] firstRegistered(final Testbed testbed, final long[] bases) throws Exception {
        final StringBuilder refusals = new StringBuilder();
        for (final long base : bases) {
            try {
                final long key = testbed.control()
                        .registerRegion(
                                base, HIGH_LENGTH, EnumSet.of(RegionAccess.LOCAL_WRITE, RegionAccess.REMOTE_WRITE));
                return new long[] {base, key};
            } catch (final DutControlException e) {
                refusals.append(" 0x")
                        .append(Long.toHexString(base))
                        .append(": ")
                        .append(e.getMessage());
            }
        }
        throw Inconclusive.because("the device refused every region of " + HIGH_LENGTH + " bytes offered at a high"
                + " 64-bit address (" + refusals.toString().trim() + "); registering one there would make 11.1.3"
                + " testable at high addresses");
    }

    /** A one-packet WRITE to {@code address} that must be refused with BOUNDS. */
    private static void assertRefused(final Testbed testbed, final long key, final long address, final long base)
            throws Exception {
        final int mark = testbed.peer().mark();
        final List<PacketBuilder> packets = TesterMessages.write(testbed, 0, address, key, DATA);
        send(testbed, packets);
        awaitNack(testbed, mark, NackCode.BOUNDS, packets);
        // A correct device never places a refused byte; the wait only lets a wrong one show it.
        testbed.peer().recorder().awaitQuiet(Duration.ofMillis(20), Duration.ofSeconds(1));
    }

    /** A one-packet WRITE to {@code address} that must land and be acknowledged without a NACK. */
    private static void assertAccepted(final Testbed testbed, final long key, final long address) throws Exception {
        final int mark = testbed.peer().mark();
        final List<PacketBuilder> packets = TesterMessages.write(testbed, 0, address, key, DATA);
        send(testbed, packets);
        final int path = packets.get(0).toPacket().header().pathId();
        testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .ack()
                                .connection(Testbed.TESTER_CONNECTION)
                                .path(path)
                                .coversAll(TesterMessages.psn(packets.get(0))),
                        Testbed.WAIT);
        testbed.peer()
                .assertNone(mark, PacketMatcher.expect().nack().connection(Testbed.TESTER_CONNECTION), Duration.ZERO);
        assertMemory(
                testbed,
                "11.1.3: a WRITE within the region at 0x" + Long.toHexString(address) + " lands (control)",
                key,
                address,
                DATA);
    }
}
