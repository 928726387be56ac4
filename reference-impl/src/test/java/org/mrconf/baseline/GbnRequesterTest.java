package org.mrconf.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.mrconf.net.EcnCodepoint;

class GbnRequesterTest {
    private static final int RESPONDER_NODE = 1;
    private static final int DATA_PORT = 4791;
    private static final int MTU = 100;
    private static final int WINDOW = 4;
    private static final long RTO_NS = 100_000;

    private final CapturingTransmitter wire = new CapturingTransmitter();
    private GbnRequester requester = requester(unpaced().build());

    @Test
    void shouldSendAtMostAWindow() {
        requester.postMessage(10 * MTU, 0);

        assertThat(wire.psns()).containsExactly(0L, 1L, 2L, 3L);
        assertThat(wire.sent)
                .allMatch(s -> s.dstNode() == RESPONDER_NODE
                        && s.srcPort() == DATA_PORT
                        && s.ecn() == EcnCodepoint.ECT_0
                        && s.type() == GbnHeader.TYPE_DATA);
        // The packet that fills the window asks for an ACK, so coalescing cannot stall the sender.
        assertThat(wire.sent.get(3).header().hasFlags(GbnHeader.FLAG_ACK_REQUEST))
                .isTrue();
        assertThat(wire.sent.get(2).header().hasFlags(GbnHeader.FLAG_ACK_REQUEST))
                .isFalse();
        assertThat(requester.state()).isEqualTo(GbnRequester.State.SENDING);
    }

    @Test
    void shouldSlideTheWindowOnAck() {
        requester.postMessage(10 * MTU, 0);
        wire.clear();

        ack(GbnHeader.TYPE_ACK, 1, 5_000);

        assertThat(wire.psns()).containsExactly(4L, 5L);
        assertThat(requester.packetsAcked()).isEqualTo(2);
    }

    @Test
    void shouldGoBackToNakedPsn() {
        requester = requester(unpaced().windowPackets(8).build());
        requester.postMessage(10 * MTU, 0);
        wire.clear();

        ack(GbnHeader.TYPE_NAK, 3, 5_000);

        // Everything from the NAKed PSN goes again, then the window's new room.
        assertThat(wire.psns()).containsExactly(3L, 4L, 5L, 6L, 7L, 8L, 9L);
        assertThat(requester.retransmittedPackets()).isEqualTo(5);
        assertThat(requester.naksReceived()).isEqualTo(1);
        assertThat(requester.packetsAcked()).isEqualTo(3);
    }

    @Test
    void shouldCutPayloadIntoPatternedMtuSizedPackets() {
        requester = requester(unpaced().windowPackets(8).build());
        requester.postMessage(2 * MTU + 30, 0);

        assertThat(wire.sent).hasSize(3);
        for (int i = 0; i < 3; i++) {
            final GbnHeader header = wire.sent.get(i).header();
            final int length = i < 2 ? MTU : 30;
            assertThat(header.payloadLength()).isEqualTo(length);
            assertThat(header.messageId()).isZero();
            assertThat(header.hasFlags(GbnHeader.FLAG_LAST)).isEqualTo(i == 2);
            assertThat(GbnPayload.matches(wire.sent.get(i).bytes(), GbnHeader.HEADER_LENGTH, 0, i * MTU, length))
                    .isTrue();
        }
    }

    @Test
    void shouldSendAnEmptyMessageAsOnePacket() {
        requester.postMessage(0, 0);

        assertThat(wire.sent).hasSize(1);
        assertThat(wire.sent.get(0).header().payloadLength()).isZero();
        assertThat(wire.sent.get(0).header().hasFlags(GbnHeader.FLAG_LAST)).isTrue();
    }

    @Test
    void shouldRetransmitFromOldestUnackedOnTimeoutWithBackoff() {
        requester.postMessage(3 * MTU, 0);
        ack(GbnHeader.TYPE_ACK, 0, 10_000);
        wire.clear();

        assertThat(requester.nextWakeupNs()).isEqualTo(10_000 + RTO_NS);
        requester.onWakeup(10_000 + RTO_NS);
        assertThat(wire.psns()).containsExactly(1L, 2L);
        assertThat(requester.nextWakeupNs()).isEqualTo(10_000 + RTO_NS + 2 * RTO_NS);

        requester.onWakeup(10_000 + 3 * RTO_NS);
        assertThat(wire.psns()).containsExactly(1L, 2L, 1L, 2L);
        assertThat(requester.nextWakeupNs()).isEqualTo(10_000 + 3 * RTO_NS + 4 * RTO_NS);
        assertThat(requester.timeouts()).isEqualTo(2);
        assertThat(requester.retransmittedPackets()).isEqualTo(4);
    }

    @Test
    void shouldResetBackoffOnProgress() {
        requester.postMessage(3 * MTU, 0);
        requester.onWakeup(RTO_NS);
        assertThat(requester.currentRtoNs()).isEqualTo(2 * RTO_NS);

        ack(GbnHeader.TYPE_ACK, 0, RTO_NS + 1_000);

        assertThat(requester.currentRtoNs()).isEqualTo(RTO_NS);
        assertThat(requester.nextWakeupNs()).isEqualTo(2 * RTO_NS + 1_000);
    }

    @Test
    void shouldFailAfterMaxRetries() {
        requester = requester(unpaced().maxRetries(2).build());
        requester.postMessage(MTU, 0);

        requester.onWakeup(RTO_NS);
        requester.onWakeup(3 * RTO_NS);
        assertThat(requester.state()).isEqualTo(GbnRequester.State.SENDING);
        requester.onWakeup(7 * RTO_NS);

        assertThat(requester.state()).isEqualTo(GbnRequester.State.FAILED);
        assertThat(requester.stateChangedNs()).isEqualTo(7 * RTO_NS);
        assertThat(requester.nextWakeupNs()).isEqualTo(Long.MAX_VALUE);
        assertThat(wire.sent).hasSize(3);
        assertThatThrownBy(() -> requester.postMessage(MTU, 8 * RTO_NS)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void shouldPaceAtTheLineRate() {
        // 10 Gbit/s: 12 + 100 + 78 = 190 wire bytes take 152 ns.
        requester = requester(GbnConfig.builder()
                .mtuPayloadBytes(MTU)
                .sendRateBps(10_000_000_000L)
                .wireOverheadBytes(78)
                .rtoNs(RTO_NS)
                .build());
        requester.postMessage(3 * MTU, 0);

        assertThat(wire.sent).hasSize(1);
        assertThat(requester.nextWakeupNs()).isEqualTo(152);
        requester.onWakeup(152);
        assertThat(wire.sent).hasSize(2);
        assertThat(requester.nextWakeupNs()).isEqualTo(304);
    }

    @Test
    void shouldIgnoreAcksOutsideTheOutstandingRange() {
        requester.postMessage(10 * MTU, 0);
        ack(GbnHeader.TYPE_ACK, 1, 1_000);
        wire.clear();

        ack(GbnHeader.TYPE_ACK, 0, 2_000);
        ack(GbnHeader.TYPE_ACK, 9, 3_000);
        ack(GbnHeader.TYPE_NAK, 7, 4_000);

        assertThat(requester.ignoredAcks()).isEqualTo(3);
        assertThat(requester.packetsAcked()).isEqualTo(2);
        assertThat(wire.sent).isEmpty();
    }

    @Test
    void shouldCompleteMessagesInOrderWithCompletionTimes() {
        requester.postMessage(2 * MTU, 0);
        requester.postMessage(MTU, 0);

        ack(GbnHeader.TYPE_ACK, 1, 5_000);
        assertThat(requester.messageCompletionNs(0)).isEqualTo(5_000);
        assertThat(requester.messageCompletionNs(1)).isEqualTo(GbnRequester.NOT_COMPLETE);
        assertThat(requester.isComplete()).isFalse();

        ack(GbnHeader.TYPE_ACK, 2, 6_000);
        assertThat(requester.messageCompletionNs(1)).isEqualTo(6_000);
        assertThat(requester.messagePostNs(1)).isZero();
        assertThat(requester.isComplete()).isTrue();
        assertThat(requester.bytesCompleted()).isEqualTo(3 * MTU);
        assertThat(requester.state()).isEqualTo(GbnRequester.State.IDLE);
        assertThat(requester.nextWakeupNs()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void shouldCarryPsnsAcrossTheWrap() {
        requester = requester(unpaced().initialPsn(0xFFFF_FFFEL).build());
        requester.postMessage(4 * MTU, 0);

        ack(GbnHeader.TYPE_ACK, 0, 1_000);

        assertThat(wire.psns()).startsWith(0xFFFF_FFFEL, 0xFFFF_FFFFL, 0L, 1L);
        assertThat(requester.packetsAcked()).isEqualTo(3);
    }

    private GbnRequester requester(final GbnConfig config) {
        wire.clear();
        return new GbnRequester(config).connect(wire, RESPONDER_NODE, DATA_PORT);
    }

    private static GbnConfig.Builder unpaced() {
        return GbnConfig.builder()
                .mtuPayloadBytes(MTU)
                .windowPackets(WINDOW)
                .sendRateBps(0)
                .rtoNs(RTO_NS);
    }

    private void ack(final int type, final long psn, final long nowNs) {
        final ByteBuffer packet = ByteBuffer.allocate(GbnHeader.HEADER_LENGTH);
        new GbnHeader().wrap(packet, 0).type(type).psn(psn);
        requester.onPacket(RESPONDER_NODE, 5000, EcnCodepoint.ECT_0, packet, 0, packet.limit(), nowNs);
    }
}
