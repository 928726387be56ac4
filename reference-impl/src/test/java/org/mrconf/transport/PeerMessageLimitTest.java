package org.mrconf.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.mrconf.wire.DataPacket;

/**
 * The peer's maximum outstanding messages per stream (spec clauses 4.2.1, 7.5.10): a message waits while its MSN is
 * that many past one of its stream not yet acknowledged, and a waiting stream holds back no other stream.
 */
class PeerMessageLimitTest {
    private static final long BASE = 0x1000_0000L;
    private static final int A_ID = 10;
    private static final int B_ID = 20;
    private static final long LIMIT_NS = 1_000_000_000L;

    private final TestNetwork network = new TestNetwork(5_000);
    private final Endpoint a;
    private final Endpoint b;
    private final MemoryRegion aMemory;
    private final MemoryRegion bMemory;

    PeerMessageLimitTest() {
        final EndpointConfig config =
                EndpointConfig.builder().lineRate(10_000_000_000L).mtu(1100).build();
        a = network.add(config);
        b = network.add(config);
        a.createConnection(ConnectionConfig.of(A_ID, B_ID, 1, 1, 2).withPeerMaxOutstandingMessages(1));
        b.createConnection(ConnectionConfig.of(B_ID, A_ID, 0, 1, 2));
        aMemory = a.registerRegion(BASE, 1 << 16, AccessFlags.ALL);
        bMemory = b.registerRegion(BASE, 1 << 16, AccessFlags.ALL);
    }

    @Test
    void shouldHoldAMessageBackUntilTheOneBeforeIsAcknowledgedWhileOtherStreamsGoOn() {
        // Stream 0's first message never arrives until released, so its MSN 1 must wait (limit 1).
        final boolean[] held = {true};
        network.filter((sent, fate) -> !(held[0]
                && sent.from() == 0
                && sent.packet() instanceof DataPacket data
                && data.streamId() == 0
                && data.messageSequenceNumber() == 0));
        a.postWrite(A_ID, 0, aMemory.key(), BASE, 64, BASE, bMemory.key(), 1);
        a.postWrite(A_ID, 0, aMemory.key(), BASE, 64, BASE + 64, bMemory.key(), 2);
        a.postWrite(A_ID, 1, aMemory.key(), BASE, 64, BASE + 128, bMemory.key(), 3);

        final List<Completion> completions = new ArrayList<>();
        assertThat(network.runUntil(
                        () -> {
                            completions.addAll(a.pollCompletions(8));
                            return completions.stream().anyMatch(c -> c.workRequestId() == 3);
                        },
                        network.nowNs() + LIMIT_NS))
                .as("stream 1's WRITE completes while stream 0 waits")
                .isTrue();
        assertThat(network.sentBy(0, DataPacket.class))
                .as("no packet of stream 0's MSN 1 while its MSN 0 is unacknowledged")
                .noneMatch(data -> data.streamId() == 0 && data.messageSequenceNumber() == 1);

        held[0] = false;
        assertThat(network.runUntil(
                        () -> {
                            completions.addAll(a.pollCompletions(8));
                            return completions.size() == 3;
                        },
                        network.nowNs() + LIMIT_NS))
                .as("every WRITE completes once MSN 0 gets through; completions %s", completions)
                .isTrue();
    }

    @Test
    void shouldRefuseALimitOutsideOneToTwoToTheThirtyFirst() {
        final ConnectionConfig base = ConnectionConfig.of(1, 2, 0, 1, 1);
        assertThat(base.peerMaxOutstandingMessages()).isEqualTo(ConnectionConfig.NO_MESSAGE_LIMIT);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> base.withPeerMaxOutstandingMessages(0))
                .isInstanceOf(IllegalArgumentException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> base.withPeerMaxOutstandingMessages(ConnectionConfig.NO_MESSAGE_LIMIT + 1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
