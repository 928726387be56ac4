package org.mrconf.cases.ordering;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.NotApplicable;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;

/**
 * The peer's maximum outstanding messages per stream, given at setup (clauses 4.2.1 and 7.5.10). The tester sets it
 * to {@value #LIMIT}, has the DUT post {@value #MESSAGES} one-packet WRITEs on one stream, and acknowledges every
 * packet but those of MSN 0: MSN 1 can then be finished while MSN 0 is not, so the DUT's windows have room, and only
 * the limit keeps MSN {@value #LIMIT} and later back. Once MSN 0 is acknowledged too, every WRITE must go out and
 * complete: the messages waited, they were not dropped.
 *
 * <p>Only the DUT's own packets are judged, never time: a packet of MSN {@value #LIMIT} or later before the tester
 * acknowledged MSN 0 fails the case, whenever it came. Where the DUT's first windows keep MSN 1 back too (a window of
 * one packet), the limit cannot be told from the window, and the case says so.
 */
@ExtendWith(DutExtension.class)
@DisplayName("The peer's maximum outstanding messages")
class PeerMessageLimitCase {
    private static final long REMOTE_ADDRESS = 0x00E6_0000L;
    private static final long REMOTE_KEY = 0x66;
    private static final int LIMIT = 2;
    private static final int MESSAGES = 5;
    private static final int LENGTH = 64;

    @Test
    @DisplayName("the DUT starts no message of a stream the peer's limit past one not yet acknowledged, and sends it"
            + " once it is")
    @Verifies("7.5.10")
    @Verifies("4.2.1")
    void theDutKeepsBelowThePeersLimit(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1, spec -> spec.withPeerMaxOutstandingMessages(LIMIT))) {
            CaseSteps.stage(testbed, Testbed.BASE, LENGTH, 66);
            // MSN 1 beside an unacknowledged MSN 0 needs two packets in flight: first windows of one are grown first,
            // with a message of their own, so the case's messages start at MSN held.
            final long held = CaseSteps.growPastOnePacket(
                    testbed, 1499, Testbed.BASE, REMOTE_ADDRESS + (long) MESSAGES * LENGTH, REMOTE_KEY);
            // Every packet but MSN held's is recorded as received and acknowledged at once, so it stays a hole.
            final Consumer<ReceivedPacket> allButTheFirst = received -> {
                final DataPacket data = received.data().orElse(null);
                if (data == null || !ours().test(received) || data.messageSequenceNumber() == held) {
                    return;
                }
                testbed.connection().onReceived(received);
                try {
                    testbed.peer().send(testbed.connection().ackFor(0, data.transmitTimestamp()));
                } catch (final IOException e) {
                    throw new UncheckedIOException(e);
                }
            };
            testbed.peer().recorder().addListener(allButTheFirst);
            final int mark = testbed.peer().mark();
            final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());
            try {
                for (int i = 0; i < MESSAGES; i++) {
                    testbed.control()
                            .postWrite(
                                    CaseSteps.request(testbed, 0, 1500 + i, Testbed.BASE, LENGTH),
                                    REMOTE_ADDRESS + (long) i * LENGTH,
                                    REMOTE_KEY);
                }
                final List<ReceivedPacket> sent =
                        TesterMessages.awaitStalled(testbed, mark, ours().firstTransmission());
                // A quiet of TesterMessages.STALL can be a loaded host's, not the DUT's choice: before reading it as
                // one packet in flight, give MSN held + 1 the bounded wait other cases give a second packet.
                if (sent.stream().noneMatch(p -> msnOf(p) == held + 1)
                        && CaseSteps.awaitWhileOthersHeld(
                                        testbed,
                                        mark,
                                        ours().firstTransmission()
                                                .where(
                                                        "MSN " + (held + 1),
                                                        DataPacket.class,
                                                        d -> d.messageSequenceNumber() == held + 1))
                                .isEmpty()) {
                    throw NotApplicable.because("the device's configuration: the DUT sent no packet of MSN "
                            + (held + 1)
                            + " while MSN " + held + " was unacknowledged (it keeps one packet in flight, which section"
                            + " 10 allows), so its windows cannot be told from the limit of " + LIMIT + "; windows of"
                            + " two packets or more would exercise it");
                }
                // The DUT's quiet window, ACKs still flowing: a DUT that ignores the limit sends the next MSN as soon
                // as
                // an ACK frees its window, and a loaded host may take longer than the short quiet above to show it.
                Thread.sleep(testbed.quiet().toMillis());
            } finally {
                testbed.peer().recorder().removeListener(allButTheFirst);
            }
            final List<Long> beyond = testbed.peer().recorder().matching(mark, ours()).stream()
                    .map(PeerMessageLimitCase::msnOf)
                    .filter(msn -> msn >= held + LIMIT)
                    .distinct()
                    .toList();
            assertThat(beyond)
                    .as(
                            "7.5.10: MSNs sent while MSN %d was not acknowledged, with the tester's limit of %d"
                                    + " outstanding messages per stream given at setup",
                            held, LIMIT)
                    .isEmpty();

            // Release: acknowledge everything from now on, MSN 0 included; every WRITE must go out and complete.
            testbed.connection().autoAck(true);
            try {
                final ReceivedPacket first = testbed.peer().await(mark, ours().msn(held), Testbed.WAIT);
                testbed.connection().onReceived(first);
                testbed.peer()
                        .send(testbed.connection()
                                .ackFor(0, first.data().orElseThrow().transmitTimestamp()));
                for (int i = 0; i < MESSAGES; i++) {
                    assertThat(completions
                                    .awaitWrId(1500 + i, "7.5.10: a WRITE that waited is sent once the limit allows")
                                    .status())
                            .as("7.5.10: WRITE %d completes once every WRITE before it is acknowledged", 1500 + i)
                            .isEqualTo(org.mrconf.dut.CompletionStatus.SUCCESS);
                }
            } finally {
                testbed.connection().autoAck(false);
            }
        }
    }

    private static long msnOf(final ReceivedPacket packet) {
        return packet.data().orElseThrow().messageSequenceNumber();
    }

    private static PacketMatcher ours() {
        return PacketMatcher.expect()
                .data()
                .opcode(Opcode.WRITE)
                .connection(Testbed.TESTER_CONNECTION)
                .where(
                        "one of the case's WRITEs",
                        DataPacket.class,
                        p -> p.remoteAddress() >= REMOTE_ADDRESS
                                && p.remoteAddress() < REMOTE_ADDRESS + (long) MESSAGES * LENGTH);
    }
}
