package org.mrconf.cases.nack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Kind;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.NackPacket;

/**
 * The DUT as a receiver that rejects: the NACK comes before any ACK that reports the rejected PSN, its cumulative
 * PSN does not cover that PSN, and an ACK reporting it follows when the code records it (clauses 9.1.4, 9.1.6,
 * 9.1.8); a RECEIVER_NOT_READY NACK carries the device's declared retry interval, at least 1 microsecond, and no
 * ACK reports its PSN (clauses 9.1.8, 9.1.9).
 */
@ExtendWith(DutExtension.class)
@DisplayName("NACK and ACK order")
class NackOrderCase {
    private static final int PATH = 1;

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName("a rejected WRITE's NACK comes first, does not cover its PSN, and an ACK reporting the PSN follows")
    @Verifies("9.1.6")
    @Verifies("9.1.8")
    @Verifies("9.1.4")
    void nackThenAck(final Testbed testbed) throws Exception {
        final int mark = testbed.peer().mark();
        final var segment = testbed.connection()
                .sendNew(testbed.write(PATH, Testbed.BASE, testbed.key() ^ 0x5A5A, Testbed.randomBytes(64, 81)), PATH);

        final ReceivedPacket nackPacket = testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .nack(NackCode.REMOTE_ACCESS)
                                .connection(Testbed.TESTER_CONNECTION)
                                .path(PATH),
                        Testbed.WAIT);
        final NackPacket nack = nackPacket.nack().orElseThrow();
        assertThat(nack.header().psn()).isEqualTo(segment.psn());
        assertThat(nack.cumulativePsn())
                .as("9.1.6: the cumulative PSN is taken before the rejected PSN is recorded")
                .isEqualTo(segment.psn());
        final ReceivedPacket ack = testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .ack()
                                .connection(Testbed.TESTER_CONNECTION)
                                .path(PATH)
                                .covers(segment.psn()),
                        Testbed.WAIT);
        assertThat(ack.index())
                .as("9.1.6: the NACK is sent before any ACK that reports the PSN")
                .isGreaterThan(nackPacket.index());
    }

    @Test
    @Kind(Kind.Purpose.INOPPORTUNE)
    @DisplayName("a SEND with no receive posted is NACKed RECEIVER_NOT_READY with a retry interval, and not ACKed")
    @Verifies("9.1.9")
    @Verifies("9.1.8")
    @Verifies("7.3.2")
    void receiverNotReadyCarriesRetryAndIsNotAcknowledged(final Testbed testbed) throws Exception {
        final int mark = testbed.peer().mark();
        final long psn = testbed.connection().nextPsn(PATH);
        final List<PeerConnection.Segment> segments =
                testbed.connection().sendMessage(0, Testbed.randomBytes(64, 82), PATH);
        assertThat(segments).hasSize(1);

        final NackPacket nack = testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .nack(NackCode.RECEIVER_NOT_READY)
                                .connection(Testbed.TESTER_CONNECTION)
                                .path(PATH),
                        Testbed.WAIT)
                .nack()
                .orElseThrow();
        assertThat(nack.header().psn()).isEqualTo(psn);
        assertThat(nack.retryAfter())
                .as("9.1.9: the declared retry interval, at least 1 us")
                .isPositive();
        final long declaredUs = testbed.profile()
                .parameters()
                .timers()
                .receiverNotReadyRetry()
                .map(d -> d.toNanos() / 1000)
                .orElseThrow(() -> new AssertionError("9.1.9: the device declares no receiverNotReadyRetryUs (clause"
                        + " 12.1.3: in its declaration file's parameters.timers, or in hello's parameters), so the retry"
                        + " interval its NACK carries, " + nack.retryAfter() + " us, cannot be its declared one"));
        assertThat(nack.retryAfter())
                .as("9.1.9: the retry-after is the declared receiverNotReadyRetryUs")
                .isEqualTo(declaredUs);
        testbed.peer()
                .assertNone(
                        mark,
                        PacketMatcher.expect()
                                .ack()
                                .connection(Testbed.TESTER_CONNECTION)
                                .path(PATH)
                                .covers(psn),
                        Testbed.QUIET);
        // Once a receive is posted, the same PSN is accepted: it was not recorded.
        testbed.control()
                .postReceive(
                        new WorkRequest(Testbed.DUT_CONNECTION, 0, 61, testbed.key(), Testbed.BASE + 0x1000, 4096));
        final int again = testbed.peer().mark();
        testbed.connection().resend(segments.get(0));
        testbed.peer()
                .await(
                        again,
                        PacketMatcher.expect()
                                .ack()
                                .connection(Testbed.TESTER_CONNECTION)
                                .path(PATH)
                                .covers(psn),
                        Testbed.WAIT);
        assertThat(testbed.awaitCompletion(61).isSuccess()).isTrue();
    }
}
