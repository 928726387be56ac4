package org.mrconf.cases.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Kind;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.DutCounters;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.Psn;
import org.mrconf.wire.AckPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.NackPacket;
import org.mrconf.wire.Opcode;

/**
 * The DUT as receiver: its per-path receive state as its ACKs report it (clauses 6.2.1, 6.2.2), packets of a path in
 * any order (6.3.2), the receive window's edges (6.1.4), all across the PSN wrap (6.1.2). Each packet asks for an
 * ACK, and the first ACK that covers it must describe exactly what the path has received, holes included: the tester
 * sends one packet at a time, so that state is known.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Per-path receive state")
class ReceiveStateCase {
    /** The tester's first PSN: the window spans the wrap from 0xFFFFFFFF to 0. */
    private static final long NEAR_WRAP = 0xFFFF_FF80L;

    private static final int PAYLOAD = 32;

    @Test
    @DisplayName("every ACK reports its path's cumulative PSN and every hole exactly, across the PSN wrap")
    @Verifies("6.2.1")
    @Verifies("6.2.2")
    @Verifies("6.3.2")
    @Verifies("6.1.2")
    void ackReportsTheExactStateOfItsPath(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 2, 1, 0, NEAR_WRAP)) {
            final Receiver path0 = new Receiver(testbed, 0, NEAR_WRAP);
            final Receiver path1 = new Receiver(testbed, 1, NEAR_WRAP);
            // Holes everywhere: bits in every byte order position, the last bit of the bitmap, PSNs after the wrap.
            for (final long offset : new long[] {1, 3, 8, 9, 64, 127, 128, 200, 255}) {
                path0.send(offset);
            }
            path1.send(0); // path 1's state is its own (6.2.1)
            path1.send(2);
            path0.send(2); // still a hole at 0
            path0.send(0); // fills the hole at 0: the cumulative PSN moves past 1, 2 and 3 (6.2.2)
            path0.send(5);
            path0.send(4); // past 5, stops at the hole at 6
            path1.send(1); // past 2
            path0.send(7); // a hole at 6 stays
            path0.send(6); // past 9, stops at 10
            for (long offset = 10; offset < 64; offset++) {
                path0.sendQuietly(offset);
            }
            path0.send(65);
            path0.send(256 + 10); // now inside the window, which has moved past 64
        }
    }

    @Test
    @DisplayName(
            "the receive window accepts cumulative + 255, NACKs cumulative + 256 and beyond, and ACKs earlier PSNs")
    @Verifies("6.1.4")
    @Verifies("6.1.2")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void receiveWindowEdges(final DeviceUnderTest dut) throws Exception {
        final long start = 0xFFFF_FFF0L;
        try (Testbed testbed = Testbed.open(dut, 1, 1, 0, start)) {
            final Receiver path = new Receiver(testbed, 0, start);
            path.send(255); // the last PSN of the window is accepted and reported in bit 255
            final Map<String, Long> before = testbed.counters();
            path.sendOutOfWindow(256);
            path.sendOutOfWindow(0x7FFF_FFFFL); // cumulative + 2^31 - 1: the farthest PSN that follows it
            assertThat(testbed.grew(before, DutCounters.RX_OUT_OF_WINDOW))
                    .as("6.1.4: out-of-window packets counted")
                    .isEqualTo(2);
            for (long offset = 0; offset < 255; offset++) {
                path.sendQuietly(offset);
            }
            path.send(256); // the window moved: what was beyond it is now its first PSN
            path.sendDuplicate(3); // precedes the cumulative PSN now: acknowledged, not placed
            path.sendDuplicate(256);
        }
    }

    /** The tester's side of one path: what it sent, what the DUT must report, and where each packet's bytes go. */
    private static final class Receiver {
        private final Testbed testbed;
        private final PeerConnection connection;
        private final int path;
        private final long base;
        private final TreeSet<Long> received = new TreeSet<>();
        private final Map<Long, Long> msnByOffset = new java.util.HashMap<>();
        private long cumulative;

        Receiver(final Testbed testbed, final int path, final long base) {
            this.testbed = testbed;
            this.connection = testbed.connection();
            this.path = path;
            this.base = base;
            this.cumulative = base;
        }

        /** Where the WRITE with PSN base + offset lands: every PSN of the first 4096 has its own 64 bytes. */
        private long address(final long offset) {
            return Testbed.BASE + path * 0x8_0000L + (offset % 4096) * 64L;
        }

        private static byte[] payload(final int path, final long offset) {
            return Testbed.randomBytes(PAYLOAD, path * 1000L + offset);
        }

        private PacketBuilder packet(final long offset, final boolean ackRequest) {
            final PacketBuilder b = connection.packet(Opcode.WRITE, path).psn(Psn.add(base, offset)).stream(0)
                    .msn(msnByOffset.computeIfAbsent(offset, o -> connection.claimMsn(0)))
                    .messageLength(PAYLOAD)
                    .messageOffset(0)
                    .remoteAddress(address(offset))
                    .remoteKey(testbed.key())
                    .transmitTimestamp(offset)
                    .payload(payload(path, offset));
            return ackRequest ? b.ackRequest() : b;
        }

        /** Sends PSN base + offset and checks the first ACK that covers it against the expected state. */
        void send(final long offset) throws Exception {
            final long psn = Psn.add(base, offset);
            final int mark = testbed.peer().mark();
            testbed.peer().send(packet(offset, true));
            record(psn);
            final AckPacket ack = testbed.peer()
                    .await(
                            mark,
                            PacketMatcher.expect()
                                    .ack()
                                    .connection(Testbed.TESTER_CONNECTION)
                                    .path(path)
                                    .covers(psn),
                            Testbed.WAIT)
                    .ack()
                    .orElseThrow();
            assertState(ack, "after PSN " + psn + " (base + " + offset + ")");
            CaseSteps.awaitBytes(
                    testbed, testbed.key(), address(offset), payload(path, offset), "6.3.2: PSN " + psn + " placed");
        }

        /** Sends without waiting for the ACK (bulk filling); the next {@link #send} checks the state. */
        void sendQuietly(final long offset) throws Exception {
            testbed.peer().send(packet(offset, false));
            record(Psn.add(base, offset));
        }

        void sendOutOfWindow(final long offset) throws Exception {
            final long psn = Psn.add(base, offset);
            final int mark = testbed.peer().mark();
            testbed.peer().send(packet(offset, true));
            final NackPacket nack = testbed.peer()
                    .await(mark, PacketMatcher.expect().nack().path(path).psn(psn), Testbed.WAIT)
                    .nack()
                    .orElseThrow();
            assertThat(nack.code())
                    .as("6.1.4: PSN %d is %d after the cumulative PSN %d", psn, offset, cumulative)
                    .isEqualTo(NackCode.PSN_OUT_OF_WINDOW);
            // Not placed, and not recorded: a later ACK (here the answer to a duplicate, 6.5.1) must not report it.
            final int ackMark = testbed.peer().mark();
            testbed.peer().send(packet(received.last(), true));
            final AckPacket ack = testbed.peer()
                    .await(ackMark, PacketMatcher.expect().ack().path(path), Testbed.WAIT)
                    .ack()
                    .orElseThrow();
            assertState(ack, "after the out-of-window PSN " + psn);
            {
                CaseSteps.assertBytes(
                        testbed,
                        testbed.key(),
                        address(offset),
                        CaseSteps.zeros(PAYLOAD),
                        "6.1.4: PSN " + psn + " beyond the window not placed");
            }
        }

        /** Sends a PSN already received again, with other bytes: acknowledged, and the first bytes stay. */
        void sendDuplicate(final long offset) throws Exception {
            final long psn = Psn.add(base, offset);
            final int mark = testbed.peer().mark();
            testbed.peer().send(packet(offset, true).payload(payload(path, offset + 7)));
            final AckPacket ack = testbed.peer()
                    .await(mark, PacketMatcher.expect().ack().path(path).covers(psn), Testbed.WAIT)
                    .ack()
                    .orElseThrow();
            assertState(ack, "after the duplicate PSN " + psn);
            CaseSteps.assertBytes(
                    testbed,
                    testbed.key(),
                    address(offset),
                    payload(path, offset),
                    "6.1.4: the duplicate PSN " + psn + " not placed again");
        }

        private void record(final long psn) {
            received.add(Psn.distance(base, psn));
            while (received.contains(Psn.distance(base, cumulative))) {
                cumulative = Psn.add(cumulative, 1);
            }
        }

        private void assertState(final AckPacket ack, final String when) {
            final List<Integer> bits = new ArrayList<>();
            final long cumulativeOffset = Psn.distance(base, cumulative);
            for (final long offset : received) {
                if (offset > cumulativeOffset && offset - cumulativeOffset < 256) {
                    bits.add((int) (offset - cumulativeOffset));
                }
            }
            assertThat(ack.cumulativePsn())
                    .as("6.2.2: path %d cumulative PSN %s", path, when)
                    .isEqualTo(cumulative);
            assertThat(ack.sackBits())
                    .as("6.2.1: path %d SACK bits %s (cumulative %d)", path, when, cumulative)
                    .containsExactly(bits.stream().mapToInt(Integer::intValue).toArray());
        }
    }
}
