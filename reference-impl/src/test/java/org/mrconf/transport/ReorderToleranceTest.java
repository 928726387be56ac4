package org.mrconf.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.mrconf.defect.Defects;
import org.mrconf.wire.AckPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.PacketFlags;

/**
 * The sender's declared reorder tolerance (spec clause 6.3.3) on a virtual clock: a PSN lost on the wire, with later
 * PSNs of its path arriving, is resent once the declared number of PSNs after it are reported received or the declared
 * time after the first ACK that showed the gap (at most a quarter of the smoothed RTT), and not before.
 */
class ReorderToleranceTest {
    private static final long BASE = 0x1000_0000L;
    private static final long ONE_WAY_NS = 100_000;
    private static final long LIMIT_NS = 1_000_000_000L;
    /** Shorter than a quarter of the ~200 us RTT, so that the declared time binds. */
    private static final long TIME_NS = 20_000;

    @Test
    void shouldWaitTheDeclaredTimeWhenTooFewLaterPsnsAreReported() {
        // Three packets, the first lost: two are reported after it, one short of the declared three.
        final long waited = resendDelayAfterTheGapShows(EndpointConfig.builder().reorderTolerance(3, TIME_NS), 3);
        assertThat(waited)
                .as("resent the declared time after the ACK that showed the gap")
                .isBetween(TIME_NS, 2 * TIME_NS);
    }

    @Test
    void shouldResendAtOnceWhenTheDeclaredPacketsAreReported() {
        final long waited = resendDelayAfterTheGapShows(EndpointConfig.builder().reorderTolerance(2, TIME_NS), 3);
        assertThat(waited)
                .as("two later PSNs reported: lost on the ACK that shows them")
                .isLessThan(TIME_NS);
    }

    @Test
    void shouldResendAtOnceWithoutATolerance() {
        final long waited = resendDelayAfterTheGapShows(EndpointConfig.builder(), 3);
        assertThat(waited)
                .as("no tolerance declared: the gap is a loss at once (clause 6.3.1)")
                .isLessThan(TIME_NS);
    }

    @Test
    void shouldResendAtOnceWhenTheToleranceIsIgnored() {
        final long waited = resendDelayAfterTheGapShows(
                EndpointConfig.builder()
                        .reorderTolerance(3, TIME_NS)
                        .defects(Defects.of(org.mrconf.defect.Defect.REORDER_TOLERANCE_IGNORED)),
                3);
        assertThat(waited).as("the defect deems the gap lost at once").isLessThan(TIME_NS);
    }

    /**
     * Sends a first WRITE for an RTT sample, then a WRITE of {@code packets} packets whose first is lost once, and
     * returns how long after the first ACK that showed the gap reached the sender the lost PSN was resent.
     */
    private static long resendDelayAfterTheGapShows(final EndpointConfig.Builder sender, final int packets) {
        final TestNetwork network = new TestNetwork(ONE_WAY_NS);
        final Endpoint a =
                network.add(sender.lineRate(10_000_000_000L).mtu(1100).build());
        final Endpoint b = network.add(
                EndpointConfig.builder().lineRate(10_000_000_000L).mtu(1100).build());
        a.createConnection(ConnectionConfig.of(1, 2, 1, 1, 1));
        b.createConnection(ConnectionConfig.of(2, 1, 0, 1, 1));
        final MemoryRegion aMemory = a.registerRegion(BASE, 1 << 16, AccessFlags.ALL);
        final MemoryRegion bMemory = b.registerRegion(BASE, 1 << 16, AccessFlags.ALL);
        a.postWrite(1, 0, aMemory.key(), BASE, 64, BASE, bMemory.key(), 1);
        assertThat(network.runUntil(() -> !a.pollCompletions(4).isEmpty(), network.nowNs() + LIMIT_NS))
                .isTrue();

        final long lost = 1; // the second WRITE's first PSN: the first WRITE took PSN 0
        final boolean[] dropped = {false};
        network.filter((sent, fate) -> {
            if (!dropped[0]
                    && sent.from() == 0
                    && sent.packet() instanceof DataPacket data
                    && data.header().psn() == lost) {
                dropped[0] = true;
                return false;
            }
            return true;
        });
        final int length = packets * 900;
        a.postWrite(1, 0, aMemory.key(), BASE, length, BASE + 4096, bMemory.key(), 2);
        assertThat(network.runUntil(() -> !a.pollCompletions(4).isEmpty(), network.nowNs() + LIMIT_NS))
                .isTrue();

        final List<TestNetwork.Sent> log = network.log;
        final long gapShownAtSenderNs = log.stream()
                .filter(s -> s.from() == 1
                        && s.packet() instanceof AckPacket ack
                        && ack.cumulativePsn() == lost
                        && ack.sackBits().length > 0)
                .mapToLong(s -> s.timeNs() + ONE_WAY_NS)
                .min()
                .orElseThrow();
        final long resentNs = log.stream()
                .filter(s -> s.from() == 0
                        && s.packet() instanceof DataPacket data
                        && data.header().psn() == lost
                        && PacketFlags.isSet(data.header().flags(), PacketFlags.RETRANSMISSION))
                .mapToLong(TestNetwork.Sent::timeNs)
                .min()
                .orElseThrow();
        return resentNs - gapShownAtSenderNs;
    }
}
