package org.mrconf.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.mrconf.dut.CapturedPacket;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.pcap.Ecn;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.StallMonitor;
import org.opentest4j.TestAbortedException;

/**
 * The other timing checks of vector replay on a host that stalled: the RTO from one RTT sample ({@link
 * RttEstimateCheck}, 6.6.1), no resend before the long-haul initial RTO ({@link LongHaulChecks}, 6.6.5) and the pace
 * under a rate hint ({@link RateCheck}, 10.1.4). A miss within the recorded stall of the measuring window makes the
 * attempt INCONCLUSIVE ({@link TestAbortedException}); a larger one is still a failure.
 */
class VectorTimingOnAStalledHostTest {
    private static final long MS = 1_000_000L;
    private static final long START = 70_000 * MS;

    private static final DeviceDeclaration.Timers TIMERS = new DeviceDeclaration.Timers(
            Duration.ofMillis(10),
            Duration.ofMillis(50),
            Duration.ofSeconds(1),
            Duration.ofMillis(1),
            16,
            3,
            Duration.ofSeconds(30),
            Duration.ofMillis(5),
            Optional.empty());

    /** A data packet of PSN {@code psn} stamped {@code atMs} by the DUT and received then by the tester. */
    private static ReceivedPacket data(final long psn, final long atMs) {
        return ReceivedPacket.decode(
                0,
                new CapturedPacket(
                        PacketBuilder.write()
                                .path(0)
                                .psn(psn)
                                .transmitTimestamp(atMs * MS)
                                .payload(new byte[1000])
                                .build(),
                        InetAddress.getLoopbackAddress(),
                        49_152,
                        4800,
                        Ecn.ECT_0,
                        true,
                        START + atMs * MS,
                        Optional.empty()));
    }

    /** A monitor that saw one stall of {@code stallMs}, ending {@code endsAtMs} after {@link #START}. */
    private static StallMonitor stalled(final long endsAtMs, final long stallMs) {
        final StallMonitor monitor =
                new StallMonitor(() -> START, nanos -> {}, Duration.ofMillis(1), Duration.ofMillis(1), 16);
        monitor.record(START + endsAtMs * MS, stallMs * MS);
        return monitor;
    }

    @Test
    void shouldMakeAnRtoFromOneSampleThatMissesWithinTheStallInconclusive() throws Exception {
        // One packet at 0 ms acknowledged with an echo 100 ms old, the next at 10 ms: RTO at least 300 - 5 ms; at most
        // 2 x 330 + 5 = 665 ms. ECHO_IGNORED-like: resent 200 ms after it, 95 ms early.
        final List<ReceivedPacket> sent = List.of(data(0, 0), data(1, 10), data(1, 210));
        assertThatThrownBy(() -> RttEstimateCheck.judge(
                        () -> sent, 1, 100 * MS, Optional.of(TIMERS), "step 4", new ArrayList<>(), stalled(150, 96)))
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("6.6.1");
        final List<String> failures = new ArrayList<>();
        RttEstimateCheck.judge(() -> sent, 1, 100 * MS, Optional.of(TIMERS), "step 4", failures, stalled(150, 94));
        assertThat(failures).singleElement().asString().contains("6.6.1");
    }

    @Test
    void shouldMakeALongHaulResendEarlyWithinTheStallInconclusive() {
        // Due no sooner than 50 - 5 = 45 ms; resent at 30 ms: 15 ms early.
        final List<ReceivedPacket> sent = List.of(data(0, 0), data(0, 30));
        assertThatThrownBy(() -> LongHaulChecks.noSpuriousResend(
                        sent, 0, 5 * MS, Optional.of(TIMERS), "step 3", new ArrayList<>(), stalled(20, 15)))
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("6.6.5");
        final List<String> failures = new ArrayList<>();
        LongHaulChecks.noSpuriousResend(sent, 0, 5 * MS, Optional.of(TIMERS), "step 3", failures, stalled(20, 14));
        assertThat(failures).singleElement().asString().contains("6.6.5");
    }

    @Test
    void shouldMakeAPaceOverTheHintWithinTheStallInconclusive() throws Exception {
        // 100 Mbit/s over 10 ms (+5 ms tolerance): 187,500 bytes plus four 1500-byte MTUs. 250 packets in 10 ms are
        // far over it; the excess, at the hinted rate, takes about 10 ms to send.
        final List<ReceivedPacket> sent = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            sent.add(data(i, i / 25));
        }
        sent.add(data(250, 11));
        final long bytes = 250L * sent.get(0).captured().length();
        final double allowed = 100e6 / 8 * 0.015 + 4.0 * 1500;
        final long overMs = (long) Math.ceil((bytes - allowed) * 8 / 100e6 * 1e3);
        assertThatThrownBy(() -> RateCheck.judge(
                        () -> sent,
                        0,
                        100,
                        Duration.ofMillis(10),
                        Optional.of(TIMERS),
                        1500,
                        "step 5",
                        new ArrayList<>(),
                        stalled(5, overMs + 1)))
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("10.1.4");
        final List<String> failures = new ArrayList<>();
        RateCheck.judge(
                () -> sent,
                0,
                100,
                Duration.ofMillis(10),
                Optional.of(TIMERS),
                1500,
                "step 5",
                failures,
                stalled(5, overMs - 2));
        assertThat(failures).singleElement().asString().contains("10.1.4");
    }
}
