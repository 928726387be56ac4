package org.mrconf.cases.protection;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Kind;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.WireLink;
import org.mrconf.pcap.Ecn;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;

/**
 * Liveness against foreign sources (clauses 6.7.3 and 11.2.2): only a packet from the connection's peer, one that
 * passed the checks of clause 5.6.4, is a sign of life. A packet for the connection from another source address is
 * dropped and "MUST NOT change any state of the connection", its silence clock included. So while the real peer stays
 * silent and a foreign source keeps sending ACKs and WRITEs for the connection, the connection still fails after its
 * declared timeout, completing its outstanding work TRANSPORT_TIMEOUT.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Liveness against foreign sources")
class ForeignLivenessCase {
    private static final long REMOTE_ADDRESS = 0x00F0_0000L;
    private static final long REMOTE_KEY = 0x44;

    @Test
    @DisplayName("ACKs and WRITEs from a foreign address do not keep a connection whose peer is silent from timing out")
    @Verifies("6.7.3")
    @Verifies("11.2.2")
    @Kind(Kind.Purpose.INVALID)
    void foreignPacketsDoNotKeepASilentConnectionAlive(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            final InetAddress foreign = foreignAddress(testbed);
            final WireLink link = testbed.peer().link();
            final Duration timeout = testbed.profile().parameters().timers().connectionTimeout();
            final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());
            CaseSteps.stage(testbed, Testbed.BASE, 4096, 5);
            final int mark = testbed.peer().mark();
            testbed.control()
                    .postWrite(CaseSteps.request(testbed, 0, 1300, Testbed.BASE, 64), REMOTE_ADDRESS, REMOTE_KEY);
            final ReceivedPacket first = testbed.peer()
                    .await(
                            mark,
                            PacketMatcher.expect().data().opcode(Opcode.WRITE).connection(Testbed.TESTER_CONNECTION),
                            Testbed.WAIT);
            final DataPacket data = first.data().orElseThrow();
            final int path = data.header().pathId();
            // The foreign source speaks far more often than the timeout: a device that took any of it as a sign of
            // life would never see the declared silence. A conforming one fails at the timeout after the WRITE.
            final Duration every = Duration.ofNanos(Math.max(1_000_000L, timeout.toNanos() / 16));
            final long deadline = System.nanoTime() + timeout.toNanos() * 2 + Testbed.WAIT.toNanos();
            final byte[] intrusion = Testbed.randomBytes(32, 6);
            List<DutCompletion> failed = List.of();
            int sent = 0;
            while (failed.isEmpty() && System.nanoTime() - deadline < 0) {
                // An ACK that acknowledges nothing (the tester recorded nothing) and a WRITE, both from the foreign
                // address to the tester's own port: everything but the source address is the peer's.
                testbed.peer()
                        .sender()
                        .sendUnimpaired(
                                foreign,
                                testbed.connection()
                                        .ackFor(path, data.transmitTimestamp())
                                        .build(),
                                link.testerPort(),
                                Ecn.NOT_ECT);
                testbed.peer()
                        .sender()
                        .sendUnimpaired(
                                foreign,
                                testbed.write(0, Testbed.BASE + 0x9000, testbed.key(), intrusion)
                                        .build(),
                                link.testerPort(),
                                Ecn.NOT_ECT);
                sent += 2;
                failed = completions.drain(every).stream()
                        .filter(c -> c.wrId() == 1300)
                        .toList();
            }
            assertThat(failed)
                    .as(
                            "6.7.3, 11.2.2: with its peer silent, the connection fails within twice its declared timeout"
                                    + " of %d ms although %d packets came from the foreign address %s",
                            timeout.toMillis(), sent, foreign.getHostAddress())
                    .isNotEmpty();
            assertThat(failed.get(0).status())
                    .as("6.7.3: the outstanding WRITE completes TRANSPORT_TIMEOUT")
                    .isEqualTo(CompletionStatus.TRANSPORT_TIMEOUT);
            TesterMessages.assertMemory(
                    testbed,
                    "11.2.2: no foreign WRITE is placed",
                    testbed.key(),
                    Testbed.BASE + 0x9000,
                    new byte[intrusion.length]);
        }
    }

    private static InetAddress foreignAddress(final Testbed testbed) {
        final WireLink link = testbed.peer().link();
        if (!link.can(WireLink.Capability.OTHER_SOURCE_ADDRESS)
                || link.alternateSourceAddress().isEmpty()) {
            throw Inconclusive.because("the wire link cannot send from an address other than the tester's, so a"
                    + " foreign source cannot be shown (use a UDP loopback or raw Ethernet link)");
        }
        return link.alternateSourceAddress().get();
    }
}
