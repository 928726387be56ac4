package org.mrconf.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The pacer keeps clause 10.1.4's bound, R x T + B over every interval, continuous or refilled in whole ticks (freedom
 * F-25), and a ticked one is never ahead of a continuous one: a coarser granularity only makes the sender slower.
 */
class PacerTest {
    private static final long BURST = 4L * 4176;

    /** One packet a greedy sender sent: when and how many bytes. */
    private record Sent(long atNs, int bytes) {}

    @Test
    void everyIntervalStaysWithinRateTimesLengthPlusTheBurst() {
        final SplittableRandom random = new SplittableRandom(20261207L);
        for (int trial = 0; trial < 40; trial++) {
            final long rate = 1_000_000_000L * (1 + random.nextInt(100));
            final long tick = random.nextBoolean() ? 0 : 1_000L * (1 + random.nextInt(50));
            final List<Sent> sent = sendGreedily(new Pacer(rate, BURST, 0, tick), random.split(), 400);
            for (int i = 0; i < sent.size(); i++) {
                long bytes = 0;
                for (int j = i; j < sent.size(); j++) {
                    bytes += sent.get(j).bytes();
                    final long intervalNs = sent.get(j).atNs() - sent.get(i).atNs();
                    assertThat((double) bytes)
                            .as(
                                    "rate %d bit/s, tick %d ns: bytes sent in [%d, %d] ns",
                                    rate, tick, sent.get(i).atNs(), sent.get(j).atNs())
                            .isLessThanOrEqualTo(rate / 8e9 * intervalNs + BURST + 1e-6);
                }
            }
        }
    }

    @Test
    void aTickedPacerIsNeverAheadOfAContinuousOneAndSendsOnlyAtTicks() {
        final long rate = 40_000_000_000L;
        final long tick = 10_000;
        final List<Sent> ticked = sendGreedily(new Pacer(rate, BURST, 0, tick), new SplittableRandom(1), 300);
        final List<Sent> continuous = sendGreedily(new Pacer(rate, BURST, 0, 0), new SplittableRandom(1), 300);
        for (int k = 0; k < ticked.size(); k++) {
            assertThat(ticked.get(k).atNs())
                    .as("packet %d of the ticked pacer goes no sooner than the continuous one's", k)
                    .isGreaterThanOrEqualTo(continuous.get(k).atNs());
            if (k >= 4) { // after the first burst, each packet waits for tokens credited at a tick
                assertThat(ticked.get(k).atNs() % tick)
                        .as("packet %d leaves at a tick", k)
                        .isZero();
            }
        }
        assertThat(ticked.get(ticked.size() - 1).atNs())
                .as("a coarser granularity at this rate makes the sender slower, not stuck")
                .isGreaterThan(continuous.get(continuous.size() - 1).atNs())
                .isLessThan(4 * continuous.get(continuous.size() - 1).atNs());
    }

    /** Sends {@code packets} packets of random sizes as soon as the pacer lets each go. */
    private static List<Sent> sendGreedily(final Pacer pacer, final SplittableRandom sizes, final int packets) {
        final List<Sent> sent = new ArrayList<>();
        long nowNs = 0;
        for (int k = 0; k < packets; k++) {
            final int bytes = 100 + sizes.nextInt(4076);
            if (!pacer.canSend(bytes, nowNs)) {
                nowNs = pacer.eligibleAtNs(bytes, nowNs);
                assertThat(pacer.canSend(bytes, nowNs))
                        .as("the pacer lets a packet go at the time it named")
                        .isTrue();
            }
            pacer.onSent(bytes, nowNs);
            sent.add(new Sent(nowNs, bytes));
        }
        return sent;
    }
}
