package org.mrconf.cases.ack;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.DutTraffic;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.pcap.Ecn;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.ReceivedPacket;

/**
 * ACKs follow the path's entropy (clause 8.1.6): each ACK and NACK of a path leaves from the UDP source port of the
 * path's most recent packet that passed the receive checks (data, READ_REQUEST or PROBE), so that when a sender
 * re-paths, its acknowledgements follow. The tester sends one packet at a time, each from a port of its own, and waits
 * for the answer before the next, so the packet the answer follows is never in doubt: data on path 0 from two ports in
 * turn, data on path 1 from a third (path 0's port must not leak into path 1's ACKs), a PROBE on path 0 from a fourth,
 * a WRITE with a foreign key on path 1 from a fifth (its NACK), and data on path 0 from the first port again (the most
 * recent port, not the first one seen, nor any one the path used before).
 */
@ExtendWith(DutExtension.class)
@DisplayName("ACK entropy")
class AckEntropyCase {

    @Test
    @DisplayName("each ACK and NACK of a path leaves from the source port of that path's most recent packet")
    @Verifies("8.1.6")
    void answersFollowTheMostRecentSourcePort(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 2, 1)) {
            TesterMessages.requireProfile(testbed, Profile.MULTIPATH);
            // Five distinct source ports, each from the OS (a fixed port may be held by another socket on the host).
            final int[] ports = testbed.peer().link().sourcePorts(5);
            final int first = ports[0];
            final int second = ports[1];
            final int otherPath = ports[2];
            final int probe = ports[3];
            final int nacked = ports[4];
            expectAckFrom(testbed, 0, first, "a WRITE on path 0");
            expectAckFrom(testbed, 0, second, "a WRITE on path 0 from a new port");
            expectAckFrom(testbed, 1, otherPath, "a WRITE on path 1");

            int mark = testbed.peer().mark();
            testbed.peer()
                    .sender()
                    .sendUnimpaired(
                            PacketBuilder.probe()
                                    .connection(Testbed.DUT_CONNECTION)
                                    .path(0)
                                    .psn(testbed.connection().nextPsn(0))
                                    .transmitTimestamp(8106)
                                    .ackRequest()
                                    .build(),
                            probe,
                            Ecn.NOT_ECT);
            ReceivedPacket answer = testbed.peer().await(mark, DutTraffic.ackOf(0), Testbed.WAIT);
            assertFrom(answer, probe, "the ACK of a PROBE on path 0");

            mark = testbed.peer().mark();
            testbed.connection()
                    .sendNewFrom(testbed.write(1, Testbed.BASE, testbed.key() ^ 0x5A5A, new byte[16]), 1, nacked);
            answer = testbed.peer()
                    .await(
                            mark,
                            PacketMatcher.expect()
                                    .nack()
                                    .connection(Testbed.TESTER_CONNECTION)
                                    .path(1),
                            Testbed.WAIT);
            assertFrom(answer, nacked, "the NACK of a WRITE with a foreign key on path 1");

            expectAckFrom(testbed, 0, first, "a WRITE on path 0 from its first port again");
        }
    }

    /** Sends a one-packet WRITE on {@code path} from {@code port} and checks the port of the ACK that covers it. */
    private static void expectAckFrom(final Testbed testbed, final int path, final int port, final String what)
            throws Exception {
        final int mark = testbed.peer().mark();
        final long psn = testbed.connection().nextPsn(path);
        testbed.connection()
                .sendNewFrom(
                        testbed.write(path, Testbed.BASE + 64L * path, testbed.key(), Testbed.randomBytes(64, port)),
                        path,
                        port);
        final ReceivedPacket ack =
                testbed.peer().await(mark, DutTraffic.ackOf(path).covers(psn), Testbed.WAIT);
        assertFrom(ack, port, "the ACK of " + what);
    }

    private static void assertFrom(final ReceivedPacket answer, final int port, final String what) {
        assertThat(answer.captured().sourcePort())
                .as("8.1.6: %s leaves from UDP source port %d, the port of the path's most recent packet", what, port)
                .isEqualTo(port);
    }
}
