package org.mrconf.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mrconf.net.EcnCodepoint;

class GbnResponderTest {
    private static final int REQUESTER_NODE = 3;
    private static final int REPLY_PORT = 5000;
    private static final int MTU = 100;
    private static final int ACK_EVERY = 4;

    private final CapturingTransmitter replies = new CapturingTransmitter();
    private final GbnConfig config =
            GbnConfig.builder().mtuPayloadBytes(MTU).ackEveryPackets(ACK_EVERY).build();
    private GbnResponder responder;
    private long nowNs;

    @BeforeEach
    void setUp() {
        responder = new GbnResponder(config).connect(replies, REPLY_PORT);
    }

    @Test
    void shouldAckEveryNInOrderPackets() {
        for (int psn = 0; psn < 8; psn++) {
            receive(psn, 0, psn * MTU, 0);
        }

        assertThat(replies.psnsOfType(GbnHeader.TYPE_ACK)).containsExactly(3L, 7L);
        assertThat(replies.sent).allMatch(r -> r.dstNode() == REQUESTER_NODE && r.srcPort() == REPLY_PORT);
        assertThat(responder.packetsAccepted()).isEqualTo(8);
        assertThat(responder.expectedPsn()).isEqualTo(8);
    }

    @Test
    void shouldAckAtOnceOnLastOrAckRequest() {
        receive(0, 0, 0, GbnHeader.FLAG_ACK_REQUEST);
        receive(1, 0, MTU, GbnHeader.FLAG_LAST);
        final long lastReceivedNs = nowNs;
        receive(2, 1, 0, 0);

        assertThat(replies.psnsOfType(GbnHeader.TYPE_ACK)).containsExactly(0L, 1L);
        assertThat(responder.messagesReceived()).isEqualTo(1);
        assertThat(responder.messageReceivedNs(0)).isEqualTo(lastReceivedNs);
    }

    @Test
    void shouldNakOnceOnFirstOutOfSequencePacket() {
        receive(0, 0, 0, 0);
        receive(1, 0, MTU, 0);
        receive(3, 0, 3 * MTU, 0);
        receive(4, 0, 4 * MTU, 0);
        receive(5, 0, 5 * MTU, GbnHeader.FLAG_ACK_REQUEST);

        assertThat(replies.psnsOfType(GbnHeader.TYPE_NAK)).containsExactly(2L);
        assertThat(replies.psnsOfType(GbnHeader.TYPE_ACK)).isEmpty();
        assertThat(responder.outOfSequenceDrops()).isEqualTo(3);
        assertThat(responder.naksSent()).isEqualTo(1);
        assertThat(responder.packetsAccepted()).isEqualTo(2);
    }

    @Test
    void shouldNakAgainForANewGap() {
        receive(0, 0, 0, 0);
        receive(2, 0, 2 * MTU, 0);
        receive(1, 0, MTU, 0);
        receive(2, 0, 2 * MTU, 0);
        receive(4, 0, 4 * MTU, 0);

        assertThat(replies.psnsOfType(GbnHeader.TYPE_NAK)).containsExactly(1L, 3L);
    }

    @Test
    void shouldReAckDuplicates() {
        receive(0, 0, 0, 0);
        receive(1, 0, MTU, 0);
        replies.clear();

        receive(0, 0, 0, 0);

        assertThat(replies.sent).hasSize(1);
        assertThat(replies.sent.get(0).type()).isEqualTo(GbnHeader.TYPE_ACK);
        assertThat(replies.sent.get(0).psn()).isEqualTo(1);
        assertThat(responder.duplicatePackets()).isEqualTo(1);
        assertThat(responder.packetsAccepted()).isEqualTo(2);
    }

    @Test
    void shouldDeliverPayloadInOrderToTheHandler() {
        final ByteArrayOutputStream delivered = new ByteArrayOutputStream();
        responder.dataHandler((messageId, messageOffset, buffer, offset, length, last, now) -> {
            final byte[] bytes = new byte[length];
            buffer.get(offset, bytes, 0, length);
            delivered.writeBytes(bytes);
        });

        receive(0, 7, 0, 0);
        receive(2, 7, 2 * MTU, GbnHeader.FLAG_LAST);
        receive(1, 7, MTU, 0);
        receive(2, 7, 2 * MTU, GbnHeader.FLAG_LAST);

        final byte[] expected = new byte[3 * MTU];
        GbnPayload.fill(ByteBuffer.wrap(expected), 0, 7, 0, expected.length);
        assertThat(delivered.toByteArray()).isEqualTo(expected);
        assertThat(responder.bytesDelivered()).isEqualTo(3 * MTU);
        assertThat(responder.payloadMismatches()).isZero();
    }

    @Test
    void shouldCountPayloadThatDoesNotMatchThePattern() {
        final ByteBuffer packet = data(0, 0, 0, 0);
        packet.put(GbnHeader.HEADER_LENGTH + 10, (byte) (packet.get(GbnHeader.HEADER_LENGTH + 10) ^ 0x40));

        responder.onPacket(REQUESTER_NODE, 1, EcnCodepoint.ECT_0, packet, 0, packet.limit(), nowNs);

        assertThat(responder.payloadMismatches()).isEqualTo(1);
        assertThat(responder.packetsAccepted()).isEqualTo(1);
    }

    @Test
    void shouldAcceptAcrossPsnWrap() {
        responder = new GbnResponder(GbnConfig.builder()
                        .mtuPayloadBytes(MTU)
                        .ackEveryPackets(1)
                        .initialPsn(0xFFFF_FFFEL)
                        .build())
                .connect(replies, REPLY_PORT);

        receive(0xFFFF_FFFEL, 0, 0, 0);
        receive(0xFFFF_FFFFL, 0, MTU, 0);
        receive(0, 0, 2 * MTU, 0);
        receive(2, 0, 4 * MTU, 0);

        assertThat(replies.psnsOfType(GbnHeader.TYPE_ACK)).containsExactly(0xFFFF_FFFEL, 0xFFFF_FFFFL, 0L);
        assertThat(replies.psnsOfType(GbnHeader.TYPE_NAK)).containsExactly(1L);
    }

    @Test
    void shouldCountCeMarksWithoutReacting() {
        final ByteBuffer packet = data(0, 0, 0, GbnHeader.FLAG_ACK_REQUEST);

        responder.onPacket(REQUESTER_NODE, 1, EcnCodepoint.CE, packet, 0, packet.limit(), nowNs);

        assertThat(responder.ceReceived()).isEqualTo(1);
        assertThat(replies.sent).hasSize(1);
    }

    @Test
    void shouldIgnoreShortAndNonDataPackets() {
        responder.onPacket(REQUESTER_NODE, 1, EcnCodepoint.ECT_0, ByteBuffer.allocate(4), 0, 4, nowNs);
        final ByteBuffer ack = ByteBuffer.allocate(GbnHeader.HEADER_LENGTH);
        new GbnHeader().wrap(ack, 0).type(GbnHeader.TYPE_ACK);
        responder.onPacket(REQUESTER_NODE, 1, EcnCodepoint.ECT_0, ack, 0, ack.limit(), nowNs);

        assertThat(responder.malformedPackets()).isEqualTo(2);
        assertThat(replies.sent).isEmpty();
        assertThat(responder.nextWakeupNs()).isEqualTo(Long.MAX_VALUE);
    }

    private void receive(final long psn, final long messageId, final int messageOffset, final int flags) {
        nowNs += 100;
        final ByteBuffer packet = data(psn, messageId, messageOffset, flags);
        responder.onPacket(REQUESTER_NODE, 1, EcnCodepoint.ECT_0, packet, 0, packet.limit(), nowNs);
    }

    private static ByteBuffer data(final long psn, final long messageId, final int messageOffset, final int flags) {
        final ByteBuffer packet = ByteBuffer.allocate(GbnHeader.HEADER_LENGTH + MTU);
        new GbnHeader()
                .wrap(packet, 0)
                .type(GbnHeader.TYPE_DATA)
                .flags(flags)
                .payloadLength(MTU)
                .psn(psn)
                .messageId(messageId);
        GbnPayload.fill(packet, GbnHeader.HEADER_LENGTH, messageId, messageOffset, MTU);
        return packet;
    }
}
