package org.mrconf.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.mrconf.fabric.Blackout;
import org.mrconf.fabric.Fabric;
import org.mrconf.fabric.FabricConfig;
import org.mrconf.fabric.FabricNode;
import org.mrconf.fabric.Link;
import org.mrconf.fabric.LinkImpairment;
import org.mrconf.fabric.PacketFate;
import org.mrconf.fabric.RandomLoss;
import org.mrconf.fabric.Simulator;

/** The baseline end to end on the simulated fabric, in virtual time. */
class GbnTransferTest {
    private static final int DATA_PORT = 49_152;
    private static final int ACK_PORT = 49_153;
    private static final long SEED = 2024L;
    private static final long LIMIT_NS = 10_000_000_000L;

    private final Simulator simulator = new Simulator();
    private final Fabric fabric = new Fabric(simulator, FabricConfig.defaults());
    private final List<ByteArrayOutputStream> received = new ArrayList<>();
    private GbnRequester requester;
    private GbnResponder responder;
    private FabricNode requesterNode;
    private Link dataRoute;

    @Test
    void shouldCompleteLosslessTransferWithAllBytesInOrder() {
        connect(GbnConfig.defaults());
        final int[] lengths = {1 << 20, 10_000, 1, 0, 3 << 20};

        post(lengths);
        runToCompletion();

        assertPayloadIntact(lengths);
        assertThat(requester.retransmittedPackets()).isZero();
        assertThat(requester.timeouts()).isZero();
        assertThat(responder.naksSent()).isZero();
        assertThat(responder.bytesDelivered()).isEqualTo(sum(lengths));
        assertThat(requester.bytesCompleted()).isEqualTo(sum(lengths));
        for (int i = 1; i < lengths.length; i++) {
            assertThat(requester.messageCompletionNs(i)).isGreaterThanOrEqualTo(requester.messageCompletionNs(i - 1));
            assertThat(responder.messageReceivedNs(i)).isLessThan(requester.messageCompletionNs(i));
        }
    }

    @Test
    void shouldRunNearLineRateWithoutLoss() {
        connect(GbnConfig.defaults());
        final int length = 8 << 20;

        post(length);
        runToCompletion();

        // 8 MiB in 2048 packets of 4096 + 12 + 78 wire bytes at 100 Gbit/s is about 686 µs.
        final double seconds = requester.messageCompletionNs(0) / 1e9;
        final double goodputBps = length * 8 / seconds;
        assertThat(goodputBps).isBetween(90e9, 100e9);
    }

    @Test
    void shouldCompleteUnderOnePercentLossWithGoBackNRetransmissions() {
        connect(GbnConfig.defaults());
        dataRoute.impairment(new RandomLoss(0.01, SEED));
        final int[] lengths = {16 << 20};

        post(lengths);
        runToCompletion();

        assertPayloadIntact(lengths);
        final long lost = dataRoute.impairmentDrops();
        assertThat(lost).isGreaterThan(20);
        assertThat(requester.naksReceived()).isPositive();
        // Each loss resends roughly a round trip's worth of packets, not just the lost one.
        assertThat(requester.retransmittedPackets()).isGreaterThan(5 * lost);
        assertThat(responder.outOfSequenceDrops()).isGreaterThan(lost);
        assertThat(responder.payloadMismatches()).isZero();
    }

    @Test
    void shouldRecoverALostTailByTimeout() {
        final GbnConfig config = GbnConfig.defaults();
        connect(config);
        final int length = 64 * config.mtuPayloadBytes();
        final long lastPsn = config.packetsFor(length) - 1;
        dataRoute.impairment(new DropFirstCopyOf(lastPsn));

        post(length);
        runToCompletion();

        assertPayloadIntact(new int[] {length});
        assertThat(requester.timeouts()).isEqualTo(1);
        assertThat(requester.naksReceived()).isZero();
        // Go back to the oldest unacknowledged packet: the tail of the last unacknowledged ACK batch.
        assertThat(requester.retransmittedPackets()).isBetween(1L, (long) config.ackEveryPackets());
        assertThat(responder.duplicatePackets()).isEqualTo(requester.retransmittedPackets() - 1);
        assertThat(requester.messageCompletionNs(0)).isGreaterThan(config.rtoNs());
    }

    @Test
    void shouldRecoverFromABlackoutWithBackoff() {
        connect(GbnConfig.defaults());
        dataRoute.impairment(new Blackout(100_000, 1_000_000));
        final int[] lengths = {8 << 20};

        post(lengths);
        runToCompletion();

        assertPayloadIntact(lengths);
        // Timeouts at about 0.2, 0.4 and 0.8 ms fall in the blackout; the one at 1.6 ms gets through.
        assertThat(requester.timeouts()).isEqualTo(4);
        assertThat(requester.messageCompletionNs(0)).isGreaterThan(1_500_000);
    }

    @Test
    void shouldCompleteAcrossThePsnWrap() {
        connect(GbnConfig.builder().initialPsn(0xFFFF_FF00L).build());
        dataRoute.impairment(new RandomLoss(0.01, SEED));
        final int[] lengths = {2 << 20};

        post(lengths);
        runToCompletion();

        assertPayloadIntact(lengths);
        assertThat(responder.expectedPsn()).isEqualTo((0xFFFF_FF00L + 512) & 0xFFFF_FFFFL);
    }

    private void connect(final GbnConfig config) {
        requester = new GbnRequester(config);
        responder = new GbnResponder(config);
        requesterNode = fabric.attach(requester);
        final FabricNode responderNode = fabric.attach(responder);
        requester.connect(requesterNode.transmitter(), responderNode.id(), DATA_PORT);
        responder.connect(responderNode.transmitter(), ACK_PORT);
        responder.dataHandler((messageId, messageOffset, buffer, offset, length, last, nowNs) -> {
            while (received.size() <= messageId) {
                received.add(new ByteArrayOutputStream());
            }
            final ByteArrayOutputStream message = received.get((int) messageId);
            assertThat(message.size()).isEqualTo(messageOffset);
            final byte[] bytes = new byte[length];
            buffer.get(offset, bytes, 0, length);
            message.writeBytes(bytes);
        });
        dataRoute = fabric.route(
                requesterNode.id(),
                responderNode.id(),
                fabric.routeIndexFor(requesterNode.id(), responderNode.id(), DATA_PORT));
    }

    private void post(final int... lengths) {
        for (final int length : lengths) {
            requester.postMessage(length, simulator.nowNs());
        }
        requesterNode.wakeupChanged();
    }

    private void runToCompletion() {
        final boolean done = simulator.runWhile(() -> !requester.isComplete(), LIMIT_NS);
        assertThat(done).as("transfer completed: %s %s", requester, responder).isTrue();
        assertThat(requester.state()).isEqualTo(GbnRequester.State.IDLE);
    }

    private void assertPayloadIntact(final int[] lengths) {
        assertThat(responder.messagesReceived()).isEqualTo(lengths.length);
        for (int m = 0; m < lengths.length; m++) {
            final byte[] expected = new byte[lengths[m]];
            GbnPayload.fill(ByteBuffer.wrap(expected), 0, m, 0, lengths[m]);
            final byte[] actual = m < received.size() ? received.get(m).toByteArray() : new byte[0];
            assertThat(actual).as("message %d", m).isEqualTo(expected);
        }
    }

    private static long sum(final int[] values) {
        long total = 0;
        for (final int value : values) {
            total += value;
        }
        return total;
    }

    /** Drops the first DATA packet carrying one PSN: a lost tail that no later packet reveals. */
    private static final class DropFirstCopyOf implements LinkImpairment {
        private final long psn;
        private final GbnHeader header = new GbnHeader();
        private boolean dropped;

        DropFirstCopyOf(final long psn) {
            this.psn = psn;
        }

        @Override
        public void impair(final long nowNs, final PacketFate fate) {
            header.wrap(fate.packet().buffer(), 0);
            if (!dropped && header.type() == GbnHeader.TYPE_DATA && header.psn() == psn) {
                dropped = true;
                fate.drop();
            }
        }
    }
}
