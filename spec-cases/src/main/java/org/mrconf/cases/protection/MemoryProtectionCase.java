package org.mrconf.cases.protection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mrconf.cases.TesterMessages.assertMemory;
import static org.mrconf.cases.TesterMessages.awaitNack;
import static org.mrconf.cases.TesterMessages.send;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Kind;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.RegionAccess;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.Opcode;

/**
 * Memory protection at the DUT as responder (spec section 11.1): every remote access, by WRITE,
 * WRITE_WITH_IMMEDIATE and READ_REQUEST, single- and multi-packet and in any arrival order, is checked against
 * the region's key, access flags and bounds before a byte moves, and is refused with the NACK Table 9-1 names.
 * Each check reads the memory back and, for READs, watches that no READ_RESPONSE leaves; a positive control on
 * the same region shows the refusal was the check, not a dead device.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Memory protection")
class MemoryProtectionCase {
    /** A second region, apart from the testbed's, for flags and invalidation. */
    private static final long OTHER = Testbed.BASE + 4L * Testbed.REGION;

    private static final int OTHER_LENGTH = 64 * 1024;

    /** Bytes a local write put in a region before the attack, so that "untouched" is not just "still zero". */
    private static final byte[] BEFORE = Testbed.randomBytes(3000, 77);

    // 11.1.1 -------------------------------------------------------------------------------------------------

    @Test
    @DisplayName("a WRITE whose key names no region is refused with REMOTE_ACCESS, whatever its packets' order")
    @Verifies("11.1.1")
    @Verifies("9.1.1")
    @Verifies("9.1.3")
    @Kind(Kind.Purpose.INVALID)
    void writeWithUnknownKey(final Testbed testbed) throws Exception {
        for (final long key : wrongKeys(testbed)) {
            assertWriteRefused(testbed, Opcode.WRITE, Testbed.BASE, key, NackCode.REMOTE_ACCESS, "11.1.1");
        }
        assertWriteAccepted(testbed, Opcode.WRITE, Testbed.BASE, testbed.key(), "11.1.1");
    }

    @Test
    @DisplayName("a WRITE_WITH_IMMEDIATE whose key names no region is refused with REMOTE_ACCESS and completes nothing")
    @Verifies("11.1.1")
    @Verifies("9.1.1")
    @Verifies("9.1.3")
    @Kind(Kind.Purpose.INVALID)
    void writeWithImmediateWithUnknownKey(final Testbed testbed) throws Exception {
        TesterMessages.requireProfile(testbed, Profile.IMMEDIATE);
        for (final long key : wrongKeys(testbed)) {
            assertWriteRefused(
                    testbed, Opcode.WRITE_WITH_IMMEDIATE, Testbed.BASE, key, NackCode.REMOTE_ACCESS, "11.1.1");
        }
        assertThat(testbed.control().pollCompletions(16, java.time.Duration.ZERO))
                .as("9.1.3: a refused WRITE_WITH_IMMEDIATE delivers no receive completion")
                .isEmpty();
        assertWriteAccepted(testbed, Opcode.WRITE_WITH_IMMEDIATE, Testbed.BASE, testbed.key(), "11.1.1");
    }

    @Test
    @DisplayName("a READ_REQUEST whose key names no region is refused with REMOTE_ACCESS and reads nothing")
    @Verifies("11.1.1")
    @Verifies("9.1.1")
    @Kind(Kind.Purpose.INVALID)
    void readWithUnknownKey(final Testbed testbed) throws Exception {
        TesterMessages.requireProfile(testbed, Profile.READ);
        testbed.control().writeRegion(testbed.key(), Testbed.BASE, BEFORE);
        for (final long key : wrongKeys(testbed)) {
            assertReadRefused(testbed, Testbed.BASE, key, BEFORE.length, NackCode.REMOTE_ACCESS);
        }
        assertReadAnswered(testbed, Testbed.BASE, testbed.key(), BEFORE);
    }

    // 11.1.2 -------------------------------------------------------------------------------------------------

    @Test
    @DisplayName("WRITE and WRITE_WITH_IMMEDIATE into a region without REMOTE_WRITE are refused with REMOTE_ACCESS")
    @Verifies("11.1.2")
    @Verifies("9.1.1")
    @Verifies("9.1.3")
    @Kind(Kind.Purpose.INVALID)
    void writeNeedsRemoteWrite(final Testbed testbed) throws Exception {
        final List<Opcode> opcodes = new ArrayList<>(List.of(Opcode.WRITE));
        if (testbed.profile().claims(Profile.IMMEDIATE)) {
            opcodes.add(Opcode.WRITE_WITH_IMMEDIATE);
        }
        final long readOnly = region(testbed, OTHER, EnumSet.of(RegionAccess.LOCAL_WRITE, RegionAccess.REMOTE_READ));
        final long localOnly = region(testbed, OTHER + OTHER_LENGTH, EnumSet.of(RegionAccess.LOCAL_WRITE));
        final long writable = region(
                testbed, OTHER + 2 * OTHER_LENGTH, EnumSet.of(RegionAccess.LOCAL_WRITE, RegionAccess.REMOTE_WRITE));
        for (final Opcode opcode : opcodes) {
            for (final long key : List.of(readOnly, localOnly)) {
                final long address = key == readOnly ? OTHER : OTHER + OTHER_LENGTH;
                testbed.control().writeRegion(key, address, BEFORE);
                assertWriteRefused(testbed, opcode, address, key, NackCode.REMOTE_ACCESS, "11.1.2");
                assertMemory(testbed, "11.1.2: a region without REMOTE_WRITE keeps its bytes", key, address, BEFORE);
            }
            assertWriteAccepted(testbed, opcode, OTHER + 2 * OTHER_LENGTH, writable, "11.1.2");
        }
    }

    @Test
    @DisplayName("a READ_REQUEST from a region without REMOTE_READ is refused with REMOTE_ACCESS and reads nothing")
    @Verifies("11.1.2")
    @Verifies("9.1.1")
    @Kind(Kind.Purpose.INVALID)
    void readNeedsRemoteRead(final Testbed testbed) throws Exception {
        TesterMessages.requireProfile(testbed, Profile.READ);
        final long writeOnly = region(testbed, OTHER, EnumSet.of(RegionAccess.LOCAL_WRITE, RegionAccess.REMOTE_WRITE));
        final long localOnly = region(testbed, OTHER + OTHER_LENGTH, EnumSet.of(RegionAccess.LOCAL_WRITE));
        final long readable = region(
                testbed, OTHER + 2 * OTHER_LENGTH, EnumSet.of(RegionAccess.LOCAL_WRITE, RegionAccess.REMOTE_READ));
        testbed.control().writeRegion(writeOnly, OTHER, BEFORE);
        testbed.control().writeRegion(localOnly, OTHER + OTHER_LENGTH, BEFORE);
        testbed.control().writeRegion(readable, OTHER + 2 * OTHER_LENGTH, BEFORE);
        assertReadRefused(testbed, OTHER, writeOnly, BEFORE.length, NackCode.REMOTE_ACCESS);
        assertReadRefused(testbed, OTHER + OTHER_LENGTH, localOnly, BEFORE.length, NackCode.REMOTE_ACCESS);
        assertReadAnswered(testbed, OTHER + 2 * OTHER_LENGTH, readable, BEFORE);
    }

    // 11.1.3 -------------------------------------------------------------------------------------------------

    @Test
    @DisplayName("a WRITE whose message range leaves the region by one byte at either end is refused with BOUNDS")
    @Verifies("11.1.3")
    @Verifies("9.1.1")
    @Verifies("9.1.3")
    @Kind(Kind.Purpose.INVALID)
    void writeOutOfBounds(final Testbed testbed) throws Exception {
        final List<Opcode> opcodes = new ArrayList<>(List.of(Opcode.WRITE));
        if (testbed.profile().claims(Profile.IMMEDIATE)) {
            opcodes.add(Opcode.WRITE_WITH_IMMEDIATE);
        }
        final long key = testbed.key();
        final long end = Testbed.BASE + Testbed.REGION;
        for (final Opcode opcode : opcodes) {
            // One byte before the region, one byte past its end, and far past it.
            assertWriteRefused(testbed, opcode, Testbed.BASE - 1, key, NackCode.BOUNDS, "11.1.3");
            assertWriteRefused(testbed, opcode, end - BEFORE.length + 1, key, NackCode.BOUNDS, "11.1.3");
            assertWriteRefused(testbed, opcode, end + 4096, key, NackCode.BOUNDS, "11.1.3");
            // Wrapping the 64-bit address space must not bring the range back inside (computed without overflow).
            assertWriteRefused(testbed, opcode, -BEFORE.length / 2, key, NackCode.BOUNDS, "11.1.3");
            assertMemory(testbed, "11.1.3", key, end - 4096, new byte[4096]);
            assertMemory(testbed, "11.1.3", key, Testbed.BASE, new byte[4096]);
            // The last bytes of the region are inside it.
            assertWriteAccepted(testbed, opcode, end - BEFORE.length, key, "11.1.3");
            testbed.control().writeRegion(key, end - BEFORE.length, new byte[BEFORE.length]);
        }
    }

    @Test
    @DisplayName("a WRITE is bounds-checked on its whole message: a first packet inside the region places nothing")
    @Verifies("11.1.3")
    @Verifies("9.1.3")
    @Kind(Kind.Purpose.INVALID)
    void writeBoundsCoverTheWholeMessage(final Testbed testbed) throws Exception {
        final long key = testbed.key();
        final long end = Testbed.BASE + Testbed.REGION;
        final int segment = TesterMessages.segment(testbed, Opcode.WRITE_WITH_IMMEDIATE);
        final byte[] data = Testbed.randomBytes(3 * segment, 8);
        // Every packet but the last lies inside; the message runs one byte past the end.
        final long address = end - data.length + 1;
        for (final int[] order : List.of(new int[] {0, 1, 2}, new int[] {1, 0, 2}, new int[] {2, 1, 0})) {
            final int mark = testbed.peer().mark();
            final List<PacketBuilder> packets = TesterMessages.write(testbed, 0, address, key, data);
            send(testbed, packets, order);
            awaitNack(testbed, mark, NackCode.BOUNDS, packets);
            settle(testbed);
            assertMemory(
                    testbed,
                    "11.1.3: no byte of an out-of-bounds message is placed",
                    key,
                    end - data.length,
                    new byte[data.length]);
        }
        // A message of a region with a large message length also leaves it, even though its one packet fits.
        final int mark = testbed.peer().mark();
        final List<PacketBuilder> huge = TesterMessages.message(
                testbed.connection(),
                Opcode.WRITE,
                0,
                1,
                BEFORE,
                BEFORE.length,
                b -> b.remoteAddress(Testbed.BASE).remoteKey(key).messageLength(longestAccepted(testbed)));
        send(testbed, huge);
        awaitNack(testbed, mark, NackCode.BOUNDS, huge);
        assertMemory(testbed, "11.1.3", key, Testbed.BASE, new byte[BEFORE.length]);
    }

    @Test
    @DisplayName("a READ_REQUEST whose range leaves the region is refused with BOUNDS and reads nothing")
    @Verifies("11.1.3")
    @Verifies("9.1.1")
    @Kind(Kind.Purpose.INVALID)
    void readOutOfBounds(final Testbed testbed) throws Exception {
        TesterMessages.requireProfile(testbed, Profile.READ);
        final long key = testbed.key();
        final long end = Testbed.BASE + Testbed.REGION;
        testbed.control().writeRegion(key, end - BEFORE.length, BEFORE);
        assertReadRefused(testbed, end - BEFORE.length + 1, key, BEFORE.length, NackCode.BOUNDS);
        assertReadRefused(testbed, Testbed.BASE - 1, key, BEFORE.length, NackCode.BOUNDS);
        assertReadRefused(testbed, -16, key, BEFORE.length, NackCode.BOUNDS);
        assertReadAnswered(testbed, end - BEFORE.length, key, BEFORE);
    }

    @Test
    @DisplayName("a region at the top of the address space: a range that wraps past 2^64 is refused with BOUNDS")
    @Verifies("11.1.3")
    @Kind(Kind.Purpose.INVALID)
    void boundsCheckedWithoutOverflow(final Testbed testbed) throws Exception {
        final long top = -2L * 4096; // 0xFFFF_FFFF_FFFF_E000: the region ends 4 KiB below 2^64
        final long key;
        try {
            key = region(testbed, top, 4096, EnumSet.of(RegionAccess.LOCAL_WRITE, RegionAccess.REMOTE_WRITE));
        } catch (final DutControlException e) {
            throw org.mrconf.cases.Inconclusive.because(
                    "the device refused a region at the top of the 64-bit address space (" + e.getMessage()
                            + "), so the overflow of 11.1.3 cannot be provoked");
        }
        // From top + 4096 - 16, a message as long as the device accepts runs past 2^64: its end wraps in 64-bit
        // arithmetic, to below the region, where a check of the end alone would let it through.
        final int mark = testbed.peer().mark();
        final List<PacketBuilder> wrapping = TesterMessages.message(
                testbed.connection(),
                Opcode.WRITE,
                0,
                0,
                new byte[16],
                16,
                b -> b.remoteAddress(top + 4096 - 16).remoteKey(key).messageLength(longestAccepted(testbed)));
        send(testbed, wrapping);
        awaitNack(testbed, mark, NackCode.BOUNDS, wrapping);
        final List<PacketBuilder> past = TesterMessages.write(testbed, 1, top + 4096 - 8, key, new byte[16]);
        send(testbed, past);
        awaitNack(testbed, mark, NackCode.BOUNDS, past);
        assertMemory(testbed, "11.1.3", key, top, new byte[4096]);
        assertWriteAccepted(testbed, Opcode.WRITE, top + 4096 - BEFORE.length, key, "11.1.3");
    }

    /**
     * A message length far past any region, but no longer than the declared maximum message length: a longer one is
     * NACKed MESSAGE_TOO_LONG before its region is looked at (Table 5-13, clause 5.6.6 step 7).
     */
    private static long longestAccepted(final Testbed testbed) {
        return Math.min(0xFFFF_FFF0L, testbed.profile().conformance().limits().maxMessageLength());
    }

    // 11.1.4 -------------------------------------------------------------------------------------------------

    @Test
    @DisplayName("after invalidation a region's key is refused for WRITE, WRITE_WITH_IMMEDIATE and READ, even "
            + "mid-message, and memory registered again at the same address is untouched")
    @Verifies("11.1.4")
    @Verifies("9.1.1")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void invalidatedKeyIsRefused(final Testbed testbed) throws Exception {
        final Set<RegionAccess> all =
                EnumSet.of(RegionAccess.LOCAL_WRITE, RegionAccess.REMOTE_WRITE, RegionAccess.REMOTE_READ);
        final long old = region(testbed, OTHER, OTHER_LENGTH, all);
        final int segment = TesterMessages.segment(testbed, Opcode.WRITE_WITH_IMMEDIATE);
        final byte[] data = Testbed.randomBytes(3 * segment, 9);
        // The first packet of a WRITE lands while the region is valid; the rest arrive after invalidation.
        int mark = testbed.peer().mark();
        final List<PacketBuilder> split = TesterMessages.write(testbed, 0, OTHER, old, data);
        send(testbed, split, 0);
        testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect().ack().path(0).covers(TesterMessages.psn(split.get(0))),
                        Testbed.WAIT);
        testbed.control().invalidateRegion(old);
        final long reused = region(testbed, OTHER, OTHER_LENGTH, all);
        mark = testbed.peer().mark();
        send(testbed, split, 2, 1);
        awaitNack(testbed, mark, NackCode.REMOTE_ACCESS, split.subList(1, 3));
        assertWriteRefused(testbed, Opcode.WRITE, OTHER, old, NackCode.REMOTE_ACCESS, "11.1.4");
        if (testbed.profile().claims(Profile.IMMEDIATE)) {
            assertWriteRefused(testbed, Opcode.WRITE_WITH_IMMEDIATE, OTHER, old, NackCode.REMOTE_ACCESS, "11.1.4");
        }
        assertMemory(
                testbed,
                "11.1.4: memory registered again after invalidation is untouched",
                reused,
                OTHER,
                new byte[data.length]);
        if (testbed.profile().claims(Profile.READ)) {
            testbed.control().writeRegion(reused, OTHER, BEFORE);
            assertReadRefused(testbed, OTHER, old, BEFORE.length, NackCode.REMOTE_ACCESS);
        }
        // The new key works: the refusal was the invalidation.
        assertWriteAccepted(testbed, Opcode.WRITE, OTHER + 8192, reused, "11.1.4");
    }

    @Test
    @DisplayName("a SEND that matches a receive whose buffer was invalidated places nothing and does not complete it")
    @Verifies("11.1.4")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void invalidatedReceiveBufferIsNotFilled(final Testbed testbed) throws Exception {
        final Set<RegionAccess> local = EnumSet.of(RegionAccess.LOCAL_WRITE);
        final long old = region(testbed, OTHER, OTHER_LENGTH, local);
        testbed.control().postReceive(new org.mrconf.dut.WorkRequest(Testbed.DUT_CONNECTION, 0, 71, old, OTHER, 8192));
        testbed.control().invalidateRegion(old);
        final long reused = region(testbed, OTHER, OTHER_LENGTH, local);
        final int mark = testbed.peer().mark();

        final List<PeerConnection.Segment> sent = testbed.connection().sendMessage(0, BEFORE, 0);

        // Whatever the DUT answers (a NACK or an ACK of a final rejection), it must not fill the old buffer.
        testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .connection(Testbed.TESTER_CONNECTION)
                                .path(0)
                                .where(
                                        "an ACK or NACK of the SEND",
                                        p -> p.nack().isPresent()
                                                || p.ack()
                                                        .filter(a -> PacketMatcher.covers(
                                                                a, sent.get(0).psn()))
                                                        .isPresent()),
                        Testbed.WAIT);
        for (final var completion : testbed.control().pollCompletions(16, Testbed.QUIET)) {
            if (completion.wrId() == 71) {
                assertThat(completion.status())
                        .as("11.1.4: a receive whose buffer was invalidated never completes successfully")
                        .isNotEqualTo(org.mrconf.dut.CompletionStatus.SUCCESS);
            }
        }
        assertMemory(
                testbed,
                "11.1.4: nothing lands in memory registered again at the old buffer",
                reused,
                OTHER,
                new byte[BEFORE.length]);
    }

    @Test
    @DisplayName("the DUT as sender reads no byte of an invalidated region for the network: queued WRITEs stop")
    @Verifies("11.1.4")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void invalidatedSourceIsNotSent(final DeviceUnderTest dut) throws Exception {
        // Two attempts, each sound on its own: a FAIL needs a packet both clocks place after the invalidation, so a
        // second look can only find a defect the first one missed (a DUT stalled by a loaded host), never invent one.
        // Each has a connection of its own: one whose source is invalidated with packets unsent fails (11.1.7).
        org.opentest4j.TestAbortedException undecided = null;
        boolean passed = false;
        for (int attempt = 0; attempt < 2; attempt++) {
            try (Testbed testbed = Testbed.open(dut, 2, 1)) {
                final int length = sourceLength(testbed);
                invalidatedSourceAttempt(testbed, 72 + attempt, OTHER + 8L * Testbed.REGION + (long) attempt * length);
                passed = true;
            } catch (final org.opentest4j.TestAbortedException e) {
                undecided = e;
            }
        }
        if (!passed) {
            throw undecided;
        }
    }

    /** The shortest WRITE {@link #invalidatedSourceAttempt} posts. */
    private static final int SOURCE_LENGTH = 512 * 1024;

    /**
     * The length of the WRITE {@link #invalidatedSourceAttempt} posts, and of its source region: more packets than any
     * legal sender can have sent before an ACK, 256 per path (the largest path window, 10.1.1, and the 256-PSN send
     * window, 6.2), whatever windows it declares or leaves undeclared, so that part of it is always still queued.
     */
    private static int sourceLength(final Testbed testbed) {
        final long packets = 256L * testbed.connection().spec().paths() + 1;
        final long needed = packets * testbed.connection().maxPayload(Opcode.WRITE);
        return (int) Math.max(SOURCE_LENGTH, needed);
    }

    /** One WRITE of {@link #SOURCE_LENGTH} bytes from {@code address}, whose region is invalidated while it is queued. */
    private static void invalidatedSourceAttempt(final Testbed testbed, final long wrId, final long address)
            throws Exception {
        final Set<RegionAccess> local = EnumSet.of(RegionAccess.LOCAL_WRITE);
        final int length = sourceLength(testbed);
        final long source = region(testbed, address, length, local);
        testbed.control().writeRegion(source, address, Testbed.randomBytes(4096, 10));
        final boolean paced = testbed.profile().claims(Profile.CONGESTION);
        testbed.connection().autoAck(false);
        final int mark = testbed.peer().mark();
        if (paced) {
            // A device that follows rate hints (10.1.4) is slowed to one packet every few tens of milliseconds while
            // everything it sends is acknowledged, so the message stays queued and no timer fires.
            testbed.connection().ackRateHint(1);
            testbed.connection().autoAck(true);
        }
        // Otherwise the tester does not acknowledge, so the DUT stops at its windows with the message still queued.
        testbed.control()
                .postWrite(
                        new org.mrconf.dut.WorkRequest(Testbed.DUT_CONNECTION, 0, wrId, source, address, length),
                        Testbed.BASE,
                        testbed.key());
        final var firstData = PacketMatcher.expect()
                .data()
                .connection(Testbed.TESTER_CONNECTION)
                .firstTransmission();
        // The case judges what stops once the region goes: part of the message must have left before it. A paced
        // device never stalls (it sends one packet per interval for as long as ACKs come), so it is invalidated
        // after its first packet; an unpaced one once it stops at its windows, so that nothing of it is in flight.
        if (paced) {
            testbed.peer().await(mark, firstData, Testbed.WAIT);
        }
        final List<org.mrconf.peer.ReceivedPacket> before = paced
                ? testbed.peer().recorder().matching(mark, firstData)
                : TesterMessages.awaitStalled(testbed, mark, firstData);
        assertThat(before)
                .as(
                        "11.1.4 set-up: the DUT sends the first packets of the posted %d-byte WRITE within %s",
                        length, Testbed.WAIT)
                .isNotEmpty();
        final long sentBytes = TesterMessages.payloadBytes(before);
        if (sentBytes >= length) {
            throw org.mrconf.cases.Inconclusive.because("the DUT sent the whole " + length
                    + "-byte message before any ACK, so no part of it was queued when the region was invalidated (a"
                    + " source wholly sent when invalidated is clause 11.1.7's, judged by"
                    + " InvalidatedBufferCase.whollySentSourceFailsNoConnection)");
        }

        testbed.control().invalidateRegion(source);
        final long invalidatedNs = testbed.peer().link().nowNs();
        final int after = testbed.peer().mark();
        // A paced device keeps getting ACKs, so a packet it sent just before the invalidation may still be on its way
        // then: only what arrives later than this proves it read the region afterwards. An unpaced one is stalled
        // (no ACK until after the invalidation), so nothing of it is in flight.
        final long graceNs = paced
                ? PACED_GRACE
                        .plus(testbed.profile().parameters().timers().tolerance())
                        .toNanos()
                : 0;
        if (!paced) {
            testbed.connection().autoAck(true);
            final long[] echo = new long[testbed.connection().spec().paths()];
            for (final var packet : before) {
                testbed.connection().onReceived(packet);
                final var data = packet.data().orElseThrow();
                echo[data.header().pathId()] = data.transmitTimestamp();
            }
            for (int path = 0; path < echo.length; path++) {
                testbed.peer().send(testbed.connection().ackFor(path, echo[path]));
            }
        }

        // A device that keeps reading the region may take longer than the wait to finish the message; the packets
        // it sent meanwhile are the finding, so the completion is judged after them.
        final var completion = testbed.completionWithin(wrId, Testbed.WAIT);
        // A device that kept sending would show it within a few of its paced intervals.
        testbed.peer()
                .recorder()
                .awaitQuiet(
                        java.time.Duration.ofMillis(100),
                        java.time.Duration.ofMillis(400).plus(java.time.Duration.ofNanos(graceNs)));
        // A packet proves the region was read after its invalidation only when both clocks place it later: its
        // arrival, and its transmit timestamp placed on the tester's clock by the fastest packet of the whole run.
        // A packet sent just before the invalidation and held up on a loaded machine passes the first, not both.
        final var clock =
                org.mrconf.peer.SenderClock.from(testbed.peer().recorder().matching(mark, firstData));
        assertThat(testbed.peer()
                        .recorder()
                        .matching(
                                after,
                                firstData.where(
                                        "sent and arriving later than a packet sent before the invalidation could",
                                        p -> p.receivedNs() - invalidatedNs > graceNs
                                                && clock.sentNs(p) - invalidatedNs > graceNs)))
                .as("11.1.4: no new data packet read from the invalidated region after its invalidation")
                .isEmpty();
        assertThat(completion)
                .as("11.1.4: a completion for the WRITE whose source was invalidated, within %s", Testbed.WAIT)
                .isPresent();
        assertThat(completion.orElseThrow().status())
                .as("11.1.4: a WRITE whose source was invalidated before all of it was sent cannot succeed")
                .isNotEqualTo(org.mrconf.dut.CompletionStatus.SUCCESS);
    }

    @Test
    @DisplayName("the DUT as READ responder reads no byte of an invalidated region for the network: the response stops")
    @Verifies("11.1.4")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void invalidatedReadSourceIsNotSent(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            TesterMessages.requireProfile(testbed, Profile.READ);
            // Longer than a path may have outstanding before an ACK (256 PSNs, clause 6.1.3), so part of the response
            // is still unsent when the tester, acknowledging nothing, sees the DUT stop at its windows.
            final int length = sourceLength(testbed);
            final long address = OTHER + 12L * Testbed.REGION;
            final long source = region(testbed, address, length, EnumSet.of(RegionAccess.REMOTE_READ));
            testbed.control().writeRegion(source, address, Testbed.randomBytes(4096, 15));
            testbed.connection().autoAck(false);
            final TesterMessages.StalledResponse stalled =
                    TesterMessages.stalledReadResponse(testbed, address, source, length, 0x1114, "11.1.4");
            final int mark = stalled.mark();
            final var response = stalled.response();
            final List<org.mrconf.peer.ReceivedPacket> before = stalled.sent();
            final long sentBytes = stalled.sentBytes();
            testbed.control().invalidateRegion(source);
            final long invalidatedNs = testbed.peer().link().nowNs();
            final int after = testbed.peer().mark();
            // Every PSN sent so far is acknowledged now, so no resend is due and the windows open: a responder that
            // still reads the region sends the response's next packets.
            testbed.connection().autoAck(true);
            TesterMessages.acknowledgeEverythingSent(
                    testbed,
                    mark,
                    before.get(before.size() - 1).data().orElseThrow().transmitTimestamp());
            testbed.peer().recorder().awaitQuiet(java.time.Duration.ofMillis(100), java.time.Duration.ofMillis(400));
            // As for the WRITE above: a packet proves the region was read after its invalidation only when both its
            // arrival and its transmit timestamp (placed on the tester's clock) come after the invalidation.
            final var clock =
                    org.mrconf.peer.SenderClock.from(testbed.peer().recorder().matching(mark, response));
            assertThat(testbed.peer()
                            .recorder()
                            .matching(
                                    after,
                                    response.where(
                                            "sent and arriving after the invalidation",
                                            p -> p.receivedNs() - invalidatedNs > 0
                                                    && clock.sentNs(p) - invalidatedNs > 0)))
                    .as(
                            "11.1.4: no new READ_RESPONSE packet read from the region after its invalidation (%d of %d"
                                    + " bytes were sent before it)",
                            sentBytes, length)
                    .isEmpty();
        }
    }

    /** How long after an invalidation a paced device's packet sent just before it may still arrive. */
    private static final java.time.Duration PACED_GRACE = java.time.Duration.ofMillis(100);

    // 11.1.5 -------------------------------------------------------------------------------------------------

    @Test
    @DisplayName("SEND bytes land only inside the matched receive's buffer, for a fit, an overrun and any order")
    @Verifies("11.1.5")
    @Verifies("7.3.3")
    void sendStaysInsideItsBuffer(final Testbed testbed) throws Exception {
        final long key = testbed.key();
        final int segment = TesterMessages.segment(testbed, Opcode.WRITE_WITH_IMMEDIATE);
        final int size = 2 * segment + 100;
        final long guard = 256;
        final long[] buffers = {Testbed.BASE + 0x1_0000, Testbed.BASE + 0x2_0000, Testbed.BASE + 0x3_0000};
        final byte[] fence = Testbed.randomBytes((int) guard, 11);
        for (int i = 0; i < buffers.length; i++) {
            testbed.control().writeRegion(key, buffers[i] - guard, fence);
            testbed.control().writeRegion(key, buffers[i] + size, fence);
            testbed.control()
                    .postReceive(
                            new org.mrconf.dut.WorkRequest(Testbed.DUT_CONNECTION, 0, 80 + i, key, buffers[i], size));
        }
        final PeerConnection connection = testbed.connection();
        // RSN 0 fits exactly, last packet first; RSN 1 overruns by one byte, its overrunning packet first; RSN 2 fits.
        final byte[] fits = Testbed.randomBytes(size, 12);
        final byte[] overruns = Testbed.randomBytes(size + 1, 13);
        int mark = testbed.peer().mark();
        final List<PacketBuilder> first = sendPackets(connection, fits, segment);
        send(testbed, first, 2, 0, 1);
        final List<PacketBuilder> second = sendPackets(connection, overruns, segment);
        send(testbed, second, 2, 1, 0);
        awaitNack(testbed, mark, NackCode.MESSAGE_TOO_LONG, second);
        final byte[] third = Testbed.randomBytes(size, 14);
        send(testbed, sendPackets(connection, third, segment));
        final var completions = TesterMessages.awaitCompletions(testbed, 80, 82);
        assertThat(completions.get(80L).status()).isEqualTo(org.mrconf.dut.CompletionStatus.SUCCESS);
        assertThat(completions.get(82L).status()).isEqualTo(org.mrconf.dut.CompletionStatus.SUCCESS);
        assertMemory(testbed, "11.1.5: the fitting SEND in its buffer", key, buffers[0], fits);
        assertMemory(testbed, "11.1.5: the SEND after an overrun in its own buffer", key, buffers[2], third);
        for (final long buffer : buffers) {
            assertMemory(testbed, "11.1.5: the bytes before a receive buffer", key, buffer - guard, fence);
            assertMemory(testbed, "11.1.5: the bytes after a receive buffer", key, buffer + size, fence);
        }
    }

    // helpers ------------------------------------------------------------------------------------------------

    private static List<PacketBuilder> sendPackets(
            final PeerConnection connection, final byte[] data, final int segment) {
        final long rsn = connection.takeRsn(0);
        return TesterMessages.message(connection, Opcode.SEND, 0, 0, data, segment, b -> b.rsn(rsn));
    }

    /** Keys that name no region: the testbed's key with bits flipped, and the neighbours of it. */
    private static List<Long> wrongKeys(final Testbed testbed) {
        final long key = testbed.key();
        return List.of(key ^ 0x5A5A_0000L, (key + 1) & 0xFFFF_FFFFL, key ^ 0x8000_0000L);
    }

    private static long region(final Testbed testbed, final long address, final Set<RegionAccess> access)
            throws DutControlException {
        return region(testbed, address, OTHER_LENGTH, access);
    }

    private static long region(
            final Testbed testbed, final long address, final long length, final Set<RegionAccess> access)
            throws DutControlException {
        return testbed.control().registerRegion(address, length, access);
    }

    /**
     * Sends a three-packet message of {@code opcode} to {@code address} with {@code key}, its last packet first, and
     * checks it is refused with {@code code} and that none of its bytes landed in the testbed's region.
     */
    private static void assertWriteRefused(
            final Testbed testbed,
            final Opcode opcode,
            final long address,
            final long key,
            final NackCode code,
            final String clause)
            throws Exception {
        final byte[] data = BEFORE;
        final int mark = testbed.peer().mark();
        final List<PacketBuilder> packets = opcode == Opcode.WRITE
                ? TesterMessages.write(testbed, 1, address, key, data)
                : TesterMessages.writeWithImmediate(testbed, 1, address, key, data);
        final int[] order = new int[packets.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = order.length - 1 - i;
        }
        send(testbed, packets, order);
        awaitNack(testbed, mark, code, packets);
        settle(testbed);
        assertMemory(
                testbed,
                clause + ": a refused " + opcode + " places nothing",
                testbed.key(),
                Testbed.BASE,
                new byte[4096]);
        assertMemory(
                testbed,
                clause + ": a refused " + opcode + " places nothing",
                testbed.key(),
                Testbed.BASE + Testbed.REGION - 4096,
                new byte[4096]);
    }

    /**
     * Lets the DUT finish with packets still on their way before memory is read. A correct DUT never places a refused
     * byte, so reading early could never fail it wrongly; the wait only gives a wrong one the time to show.
     */
    private static void settle(final Testbed testbed) {
        testbed.peer().recorder().awaitQuiet(java.time.Duration.ofMillis(20), java.time.Duration.ofSeconds(1));
    }

    /** Waits for an ACK of the message's path that reports every one of its PSNs. */
    private static void awaitCovered(final Testbed testbed, final int mark, final List<PacketBuilder> packets) {
        final int path = packets.get(0).toPacket().header().pathId();
        final long[] psns = packets.stream().mapToLong(TesterMessages::psn).toArray();
        testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .ack()
                                .connection(Testbed.TESTER_CONNECTION)
                                .path(path)
                                .coversAll(psns),
                        Testbed.WAIT);
    }

    /** The positive control: a valid message of {@code opcode} to {@code address} lands and is acknowledged. */
    private static void assertWriteAccepted(
            final Testbed testbed, final Opcode opcode, final long address, final long key, final String clause)
            throws Exception {
        final int mark = testbed.peer().mark();
        final List<PacketBuilder> packets = opcode == Opcode.WRITE
                ? TesterMessages.write(testbed, 0, address, key, BEFORE)
                : TesterMessages.writeWithImmediate(testbed, 0, address, key, BEFORE);
        send(testbed, packets);
        awaitCovered(testbed, mark, packets);
        testbed.peer()
                .assertNone(
                        mark,
                        PacketMatcher.expect().nack().connection(Testbed.TESTER_CONNECTION),
                        java.time.Duration.ZERO);
        assertMemory(testbed, clause + ": a permitted " + opcode + " lands (control)", key, address, BEFORE);
        if (opcode == Opcode.WRITE_WITH_IMMEDIATE) {
            testbed.control().pollCompletions(16, java.time.Duration.ofMillis(100));
        }
    }

    /** A READ_REQUEST that must be refused with {@code code}, and no READ_RESPONSE for it. */
    private static void assertReadRefused(
            final Testbed testbed, final long address, final long key, final int length, final NackCode code)
            throws Exception {
        final int mark = testbed.peer().mark();
        final long sink = 0x5100 + mark;
        final var request = testbed.connection().readRequest(0, address, key, length, sink, 1);
        final List<PacketBuilder> asList = List.of(PacketBuilder.from(
                org.mrconf.wire.Packet.fromBytes(request.sent().bytes())));
        awaitNack(testbed, mark, code, asList);
        testbed.peer()
                .assertNone(
                        mark,
                        PacketMatcher.expect()
                                .data()
                                .opcode(Opcode.READ_RESPONSE)
                                .sinkHandle(sink),
                        Testbed.QUIET);
    }

    /** The positive control for READ: the responder returns exactly the bytes. */
    private static void assertReadAnswered(
            final Testbed testbed, final long address, final long key, final byte[] expected) throws Exception {
        testbed.connection().autoAck(true);
        final int mark = testbed.peer().mark();
        final long sink = 0x5200 + mark;
        testbed.connection().readRequest(0, address, key, expected.length, sink, 0);
        final byte[] assembled = new byte[expected.length];
        int received = 0;
        int count = 0;
        final PacketMatcher response =
                PacketMatcher.expect().data().opcode(Opcode.READ_RESPONSE).sinkHandle(sink);
        while (received < expected.length) {
            final var packets = testbed.peer().recorder().awaitCount(mark, response, ++count, Testbed.WAIT);
            final var data = packets.get(packets.size() - 1).data().orElseThrow();
            System.arraycopy(data.payload(), 0, assembled, (int) data.messageOffset(), data.payloadLength());
            received += data.payloadLength();
        }
        assertThat(assembled)
                .as("a permitted READ returns the region's bytes (control)")
                .isEqualTo(expected);
        testbed.connection().autoAck(false);
    }
}
