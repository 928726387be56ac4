package org.mrconf.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mrconf.fabric.RecordingEndpoint.send;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mrconf.net.EcnCodepoint;
import org.mrconf.net.PacketReceiver;

class FabricNodeTest {
    private static final int PORT = 1000;
    /** One 100-byte packet crosses the default fabric in under 2 µs. */
    private static final long DELIVERY_NS = 2_000;

    private final Simulator simulator = new Simulator();
    private final Fabric fabric = new Fabric(simulator, FabricConfig.defaults());
    private final RecordingEndpoint sender = new RecordingEndpoint();
    private final RecordingEndpoint receiver = new RecordingEndpoint();
    private FabricNode a;
    private FabricNode b;

    @BeforeEach
    void setUp() {
        a = fabric.attach(sender);
        b = fabric.attach(receiver);
    }

    @Test
    void shouldFireWakeupAtExactlyTheRequestedTime() {
        receiver.deadlineNs = 1_234;
        b.wakeupChanged();

        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(receiver.wakeups).containsExactly(1_234L);
        assertThat(b.wakeups()).isEqualTo(1);
    }

    @Test
    void shouldScheduleTheWakeupAnEndpointWantsWhenAttached() {
        final RecordingEndpoint early = new RecordingEndpoint();
        early.deadlineNs = 777;

        fabric.attach(early);
        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(early.wakeups).containsExactly(777L);
    }

    @Test
    void shouldReplacePendingWakeupWhenDeadlineMovesEarlier() {
        receiver.deadlineNs = 50_000;
        b.wakeupChanged();
        receiver.deadlineAfterPacketNs = 30_000;

        send(a, b.id(), PORT, EcnCodepoint.NOT_ECT, 100, 0);
        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(receiver.arrivals.get(0).timeNs()).isLessThan(DELIVERY_NS);
        assertThat(receiver.wakeups).containsExactly(30_000L);
    }

    @Test
    void shouldReplacePendingWakeupWhenDeadlineMovesLater() {
        receiver.deadlineNs = 30_000;
        b.wakeupChanged();
        receiver.deadlineAfterPacketNs = 70_000;

        send(a, b.id(), PORT, EcnCodepoint.NOT_ECT, 100, 0);
        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(receiver.wakeups).containsExactly(70_000L);
    }

    @Test
    void shouldCancelWakeupWhenDeadlineIsCleared() {
        receiver.deadlineNs = 30_000;
        b.wakeupChanged();

        receiver.deadlineNs = Long.MAX_VALUE;
        b.wakeupChanged();
        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(receiver.wakeups).isEmpty();
        assertThat(simulator.nowNs()).isZero();
    }

    @Test
    void shouldKeepAtMostOnePendingWakeupPerNode() {
        for (long deadlineNs = 10_000; deadlineNs < 20_000; deadlineNs += 1_000) {
            receiver.deadlineNs = deadlineNs;
            b.wakeupChanged();
        }

        assertThat(simulator.pendingEvents()).isEqualTo(1);
        assertThat(b.wakeupDeadlineNs()).isEqualTo(19_000);
        simulator.runUntilIdle(Long.MAX_VALUE);
        assertThat(receiver.wakeups).containsExactly(19_000L);
    }

    @Test
    void shouldAskAgainAfterEveryWakeup() {
        receiver.deadlineNs = 1_000;
        receiver.rearmEveryNs = 1_000;
        receiver.wakeupsLeft = 5;
        b.wakeupChanged();

        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(receiver.wakeups).containsExactly(1_000L, 2_000L, 3_000L, 4_000L, 5_000L);
    }

    @Test
    void shouldWakeAtOnceForADeadlineAlreadyPassed() {
        simulator.runUntil(10_000);
        receiver.deadlineNs = 5_000;

        b.wakeupChanged();
        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(receiver.wakeups).containsExactly(10_000L);
    }

    @Test
    void shouldNoticeANewDeadlineAfterATransmitFromOutsideACallback() {
        simulator.runUntil(5_000);

        send(a, b.id(), PORT, EcnCodepoint.NOT_ECT, 100, 0);
        // Set after the transmit, as an endpoint arming its retransmission timer would.
        sender.deadlineNs = 8_000;
        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(sender.wakeups).containsExactly(8_000L);
    }

    @Test
    void shouldFailLoudlyForAnEndpointThatNeverClearsItsDeadline() {
        final PacketReceiver stuck = new PacketReceiver() {
            @Override
            public void onPacket(
                    final int srcNode,
                    final int srcPort,
                    final int ecn,
                    final ByteBuffer buffer,
                    final int offset,
                    final int length,
                    final long nowNs) {}

            @Override
            public void onWakeup(final long nowNs) {}

            @Override
            public long nextWakeupNs() {
                return 100;
            }
        };
        fabric.attach(stuck);

        assertThatThrownBy(() -> simulator.runUntilIdle(Long.MAX_VALUE))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("node 2");
    }

    @Test
    void shouldCountPacketsSentAndDelivered() {
        send(a, b.id(), PORT, EcnCodepoint.NOT_ECT, 100, 0);
        send(a, b.id(), PORT, EcnCodepoint.NOT_ECT, 300, 1);

        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(a.packetsSent()).isEqualTo(2);
        assertThat(a.bytesSent()).isEqualTo(400);
        assertThat(b.packetsDelivered()).isEqualTo(2);
        assertThat(b.bytesDelivered()).isEqualTo(400);
        assertThat(receiver.arrivals).allMatch(arrival -> arrival.srcNode() == a.id() && arrival.srcPort() == PORT);
    }

    @Test
    void shouldCopyPayloadSoTheSenderMayReuseItsBuffer() {
        final ByteBuffer buffer = ByteBuffer.wrap(RecordingEndpoint.payload(64, 5));

        a.transmit(b.id(), PORT, EcnCodepoint.NOT_ECT, buffer, 0, 64);
        buffer.put(0, new byte[64]);
        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(receiver.arrivals.get(0).payload()).isEqualTo(RecordingEndpoint.payload(64, 5));
    }

    @Test
    void shouldReadFromTheGivenOffsetWithoutMovingThePosition() {
        final ByteBuffer buffer = ByteBuffer.allocate(100);
        buffer.put(10, RecordingEndpoint.payload(20, 9));
        buffer.position(3);

        a.transmit(b.id(), PORT, EcnCodepoint.NOT_ECT, buffer, 10, 20);
        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(buffer.position()).isEqualTo(3);
        assertThat(receiver.arrivals.get(0).payload()).isEqualTo(RecordingEndpoint.payload(20, 9));
    }

    @Test
    void shouldRejectBadDestinationsLengthsAndEcn() {
        final ByteBuffer buffer = ByteBuffer.allocate(20_000);

        assertThatThrownBy(() -> a.transmit(a.id(), PORT, EcnCodepoint.NOT_ECT, buffer, 0, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("itself");
        assertThatThrownBy(() -> a.transmit(7, PORT, EcnCodepoint.NOT_ECT, buffer, 0, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dstNode=7");
        assertThatThrownBy(() -> a.transmit(b.id(), PORT, EcnCodepoint.NOT_ECT, buffer, 0, 9217))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxPacketBytes=9216");
        assertThatThrownBy(() -> a.transmit(b.id(), PORT, 4, buffer, 0, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ecn=4");
    }
}
