package org.mrconf.cases.congestion;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DutCounters;
import org.mrconf.dut.WireLink;
import org.mrconf.pcap.Ecn;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.Psn;

/**
 * Which packets an ACK's CE count covers (clause 8.2.2): every data packet, READ_REQUEST
 * and PROBE of the path that passed the checks of clause 5.6.4, whatever the connection-state checks then make of
 * it, and a NACK does not start a new count. The tester sends one CE-marked packet of each kind (a placed WRITE, its
 * duplicate, a stale copy of its message under a new PSN, a WRITE NACKed REMOTE_ACCESS, one beyond the receive window,
 * a PROBE), each followed by an unmarked WRITE that asks for an ACK. The CE counts of the path's ACKs since the kind's
 * packet must add up to exactly 1: the sum does not depend on how the DUT coalesces or times its ACKs.
 */
@ExtendWith(DutExtension.class)
@DisplayName("What the CE count covers")
class CeCountCoverageCase {
    private static final int PATH = 0;
    private static final byte[] DATA = Testbed.randomBytes(32, 71);

    /** One kind of CE-marked packet: builds it on the testbed's connection, consuming a PSN when it is recorded. */
    private interface Marked {
        PacketBuilder build(Testbed testbed) throws Exception;
    }

    @Test
    @DisplayName("the CE count covers placed, duplicate, stale, NACKed and out-of-window packets and PROBEs, and a"
            + " NACK does not reset it")
    @Verifies("8.2.2")
    void coversEveryPacketThatPassedTheStructuralChecks(final Testbed testbed) throws Exception {
        TesterMessages.requireProfile(testbed, Profile.CONGESTION);
        if (!testbed.peer().link().can(WireLink.Capability.SEND_ECN)) {
            throw Inconclusive.because("the wire link cannot set the ECN field, so no CE mark can reach the DUT");
        }
        final Map<String, Long> before = testbed.counters();
        final long placedPsn = testbed.connection().nextPsn(PATH);
        final PacketBuilder placed = testbed.write(PATH, Testbed.BASE, testbed.key(), DATA);
        final int placedCount = countOne(testbed, "a placed WRITE", t -> {
            t.connection().setNextPsn(PATH, Psn.add(placedPsn, 1));
            return placed;
        });
        if (placedCount == 0 && testbed.grew(before, DutCounters.RX_CE_MARKED) == 0) {
            throw Inconclusive.because("the DUT neither counted (" + DutCounters.RX_CE_MARKED + ") nor reported the CE"
                    + " mark of a placed WRITE: the marks did not reach it through this link");
        }
        assertThat(placedCount)
                .as("8.2.2: the CE counts of the ACKs after a CE-marked WRITE that was placed")
                .isEqualTo(1);
        countExactlyOne(testbed, "a duplicate of that WRITE (same PSN)", t -> placed.retransmission());
        countExactlyOne(testbed, "a stale copy of that WRITE's message under a new PSN", t -> {
            final long psn = t.connection().nextPsn(PATH);
            t.connection().setNextPsn(PATH, Psn.add(psn, 1));
            return placed.retransmission().psn(psn);
        });
        countExactlyOne(testbed, "a WRITE NACKed REMOTE_ACCESS (its PSN is recorded)", t -> {
            final PacketBuilder foreign = t.write(PATH, Testbed.BASE, t.key() ^ 0x5A5A, DATA);
            t.connection().setNextPsn(PATH, Psn.add(t.connection().nextPsn(PATH), 1));
            return foreign;
        });
        countExactlyOne(
                testbed,
                "a WRITE beyond the receive window, NACKed PSN_OUT_OF_WINDOW",
                t -> t.write(PATH, Testbed.BASE, t.key(), DATA)
                        .psn(Psn.add(t.connection().nextPsn(PATH), 300)));
        countExactlyOne(
                testbed,
                "a PROBE that asks for an ACK",
                t -> PacketBuilder.probe()
                        .connection(Testbed.DUT_CONNECTION)
                        .path(PATH)
                        .psn(t.connection().nextPsn(PATH))
                        .transmitTimestamp(77)
                        .ackRequest());
    }

    private static void countExactlyOne(final Testbed testbed, final String what, final Marked marked)
            throws Exception {
        assertThat(countOne(testbed, what, marked))
                .as(
                        "8.2.2: the CE counts of the ACKs after a CE-marked packet that passed clause 5.6.4: %s, then"
                                + " an unmarked WRITE asking for an ACK",
                        what)
                .isEqualTo(1);
    }

    /**
     * Sends the CE-marked packet, then an unmarked WRITE asking for an ACK, waits for that ACK and for quiet, and
     * returns the sum of the CE counts of the path's ACKs since the marked packet.
     */
    private static int countOne(final Testbed testbed, final String what, final Marked marked) throws Exception {
        final int mark = testbed.peer().mark();
        testbed.peer().sender().send(marked.build(testbed).build(), Ecn.CE);
        final long flushPsn = testbed.connection().nextPsn(PATH);
        testbed.connection().sendNew(testbed.write(PATH, Testbed.BASE + 1024, testbed.key(), DATA), PATH);
        testbed.peer().await(mark, PacketMatcher.expect().ack().path(PATH).covers(flushPsn), Testbed.WAIT);
        testbed.peer().recorder().awaitQuiet(Duration.ofMillis(50), Testbed.WAIT);
        return CongestionCase.ceSum(testbed, mark, PATH);
    }
}
