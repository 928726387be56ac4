package org.mrconf.cases.congestion;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.Applicability;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Kind;
import org.mrconf.cases.NotApplicable;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.WireLink;
import org.mrconf.pcap.Ecn;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.AckPacket;

/**
 * The ACKs of a device that does not claim congestion (spec clause 8.2.6): CE count 0 and rate hint 0xFFFFFFFF (no
 * limit) in every one, whatever the ECN field of what it received, so that a peer claiming congestion, which acts on
 * every ACK, is not throttled by values nobody computed. A device that claims congestion is judged by clauses 8.2.2
 * and 8.2.3 instead.
 */
@ExtendWith(DutExtension.class)
@DisplayName("ACKs without the congestion profile")
class WithoutCongestionCase {
    private static final int PACKETS = 4;

    @Test
    @DisplayName("a device without the congestion profile sends CE count 0 and no rate limit, CE-marked data or not")
    @Verifies("8.2.6")
    @Kind(Kind.Purpose.VALID)
    void acksCarryNoCongestionSignals(final Testbed testbed) throws Exception {
        if (testbed.profile().claims(Profile.CONGESTION)) {
            throw NotApplicable.because(Applicability.CLAIMS_MORE
                    + "it claims the congestion profile, so clauses 8.2.2 and 8.2.3 judge its ACKs instead");
        }
        final WireLink link = testbed.peer().link();
        // Without a way to mark CE the ACKs are still judged, on unmarked data only.
        final boolean marks = link.can(WireLink.Capability.SEND_ECN);
        final PeerConnection connection = testbed.connection();
        final int mark = testbed.peer().mark();
        long lastPsn = 0;
        for (int i = 0; i < PACKETS; i++) {
            final long psn = connection.nextPsn(0);
            final var write =
                    testbed.write(0, Testbed.BASE + 4096L * i, testbed.key(), Testbed.randomBytes(256, 60 + i));
            testbed.peer().sender().send(write.psn(psn).build(), marks && i % 2 == 0 ? Ecn.CE : Ecn.ECT_0);
            connection.setNextPsn(0, psn + 1);
            lastPsn = psn;
        }
        final PacketMatcher acks = PacketMatcher.expect().ack().connection(Testbed.TESTER_CONNECTION);
        testbed.peer().await(mark, acks.covers(lastPsn), Testbed.WAIT);
        final List<ReceivedPacket> answered = testbed.peer().recorder().matching(mark, acks);
        for (final ReceivedPacket packet : answered) {
            final AckPacket ack = packet.ack().orElseThrow();
            assertThat(ack.ceCount())
                    .as("8.2.6: the CE count of every ACK of a device without congestion (%s)", packet)
                    .isZero();
            assertThat(ack.rateHint())
                    .as("8.2.6: the rate hint of every ACK of a device without congestion (%s)", packet)
                    .isEqualTo(0xFFFF_FFFFL);
        }
    }
}
