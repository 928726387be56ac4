package org.mrconf.cases.congestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DutCounters;
import org.mrconf.dut.WireLink;
import org.mrconf.pcap.Ecn;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.AckPacket;

/**
 * The DUT as a receiver of CE marks, over whatever link reaches it (for a device on UDP sockets this needs the
 * received ECN field, clause 8.2.5): the tester sends WRITEs, some marked CE, and the ACKs of the path must count
 * exactly the marked packets since the previous ACK of the path (clause 8.2.2), the marked packets must be placed
 * like unmarked ones (clause 4.1.7), and {@code rx_ce_marked} must count them.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Received CE marks")
class ReceivedCeCase {
    private static final int PATH = 1;
    private static final int PACKETS = 4;

    @Test
    @DisplayName("the ACKs of a path count exactly the CE-marked packets received on it, and the data is placed")
    @Verifies("8.2.2")
    @Verifies("8.2.5")
    @Verifies("4.1.7")
    void acksCountReceivedCeMarks(final Testbed testbed) throws Exception {
        if (!testbed.profile().claims(Profile.CONGESTION)) {
            throw org.mrconf.cases.NotApplicable.because("the device does not claim the congestion profile");
        }
        final WireLink link = testbed.peer().link();
        assumeTrue(
                link.can(WireLink.Capability.SEND_ECN),
                link.getClass().getSimpleName() + " cannot set the ECN field of what the tester sends");

        // An unmarked packet first, acknowledged on request: the CE count starts from this ACK.
        final byte[] first = Testbed.randomBytes(512, 41);
        int mark = testbed.peer().mark();
        final long firstPsn = send(testbed, testbed.write(PATH, Testbed.BASE, testbed.key(), first), Ecn.ECT_0);
        final AckPacket baseline = awaitAck(testbed, mark, firstPsn);
        assertThat(baseline.ceCount())
                .as("8.2.2: no CE-marked packet arrived yet")
                .isZero();
        final var before = testbed.counters();

        // Then PACKETS WRITEs, every other one CE-marked; only the last asks for an ACK.
        mark = testbed.peer().mark();
        int marked = 0;
        long lastPsn = 0;
        final byte[][] data = new byte[PACKETS][];
        for (int i = 0; i < PACKETS; i++) {
            data[i] = Testbed.randomBytes(512, 50 + i);
            // One message each, MSN 1 onwards (the peer's MSN counter only advances through its own message helpers).
            final var builder = testbed.write(PATH, Testbed.BASE + 4096L * (i + 1), testbed.key(), data[i])
                    .msn(i + 1);
            if (i < PACKETS - 1) {
                builder.flags(0); // ACK_REQUEST only on the last one
            }
            final boolean ce = i % 2 == 0;
            lastPsn = send(testbed, builder, ce ? Ecn.CE : Ecn.ECT_0);
            marked += ce ? 1 : 0;
        }
        awaitAck(testbed, mark, lastPsn);

        int counted = 0;
        for (final ReceivedPacket packet : testbed.peer().recorder().matching(mark, acksOfPath())) {
            counted += packet.ack().orElseThrow().ceCount();
        }
        assertThat(counted)
                .as("8.2.2: the CE counts of the ACKs since the previous one add up to the CE-marked packets")
                .isEqualTo(marked);
        assertThat(testbed.grew(before, DutCounters.RX_CE_MARKED)).isEqualTo(marked);
        for (int i = 0; i < PACKETS; i++) {
            assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE + 4096L * (i + 1), data[i].length))
                    .as("4.1.7: a CE-marked packet is placed like an unmarked one")
                    .isEqualTo(data[i]);
        }
    }

    /** Sends the next new packet of {@link #PATH} with this ECN field and returns its PSN. */
    private static long send(final Testbed testbed, final PacketBuilder builder, final Ecn ecn) throws Exception {
        final PeerConnection connection = testbed.connection();
        final long psn = connection.nextPsn(PATH);
        testbed.peer().sender().send(builder.psn(psn).build(), ecn);
        connection.setNextPsn(PATH, psn + 1);
        return psn;
    }

    private static PacketMatcher acksOfPath() {
        return PacketMatcher.expect()
                .ack()
                .connection(Testbed.TESTER_CONNECTION)
                .path(PATH);
    }

    private static AckPacket awaitAck(final Testbed testbed, final int mark, final long psn) {
        return testbed.peer()
                .await(mark, acksOfPath().covers(psn), Testbed.WAIT)
                .ack()
                .orElseThrow();
    }
}
