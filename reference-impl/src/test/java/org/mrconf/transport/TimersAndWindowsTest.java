package org.mrconf.transport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** RTT/RTO (clauses 6.6.1 to 6.6.3), AIMD (10.1.1 to 10.1.3) and the pacer (10.1.4) in isolation. */
class TimersAndWindowsTest {
    @Test
    void shouldFollowRfc6298AndClamp() {
        final RttEstimator rtt = new RttEstimator(100_000, 1_000_000, 10_000_000);
        assertThat(rtt.rtoNs()).isEqualTo(1_000_000);

        rtt.onSample(40_000);
        assertThat(rtt.srttNs()).isEqualTo(40_000);
        assertThat(rtt.rttVarNs()).isEqualTo(20_000);
        assertThat(rtt.rtoNs()).as("40 + 4*20 us = 120 us").isEqualTo(120_000);

        rtt.onSample(48_000);
        assertThat(rtt.srttNs()).isEqualTo(41_000);
        assertThat(rtt.rttVarNs()).isEqualTo(17_000);

        rtt.onSample(1_000);
        rtt.onSample(1_000);
        assertThat(rtt.rtoNs()).as("clamped to min RTO").isGreaterThanOrEqualTo(100_000);
    }

    @Test
    void shouldBackOffExponentiallyUpToTheMaximumAndResetOnASample() {
        final RttEstimator rtt = new RttEstimator(100_000, 1_000_000, 10_000_000);
        rtt.backOff();
        assertThat(rtt.rtoNs()).isEqualTo(2_000_000);
        rtt.backOff();
        rtt.backOff();
        assertThat(rtt.rtoNs()).isEqualTo(8_000_000);
        rtt.backOff();
        assertThat(rtt.rtoNs()).isEqualTo(10_000_000);
        for (int i = 0; i < 100; i++) {
            rtt.backOff();
        }
        assertThat(rtt.rtoNs()).isEqualTo(10_000_000);
        rtt.onSample(200_000);
        assertThat(rtt.rtoNs()).isEqualTo(600_000);
    }

    @Test
    void shouldDecreaseOncePerRttAndGrowByAboutOnePacketPerWindow() {
        final AimdWindow window = new AimdWindow(100, 256, 0.5);
        window.onAck(1, 3, 1_000, 10_000, 0);
        assertThat(window.packets()).isEqualTo(50);
        window.onAck(1, 3, 5_000, 10_000, 0);
        assertThat(window.packets()).as("second mark within one RTT").isEqualTo(50);
        window.onAck(1, 1, 11_000, 10_000, 0);
        assertThat(window.packets()).isEqualTo(25);

        window.onAck(25, 0, 20_000, 10_000, 0);
        assertThat(window.window()).isEqualTo(26.0);
        window.onTimeout();
        assertThat(window.packets()).isEqualTo(1);
        window.onAck(1, 9, 100_000, 10_000, 0);
        assertThat(window.packets()).as("never below one packet").isEqualTo(1);
    }

    @Test
    void shouldNotDecreaseBelowTheFloorTheRateHintNeeds() {
        final AimdWindow window = new AimdWindow(100, 256, 0.5);
        window.onAck(1, 5, 1_000, 10_000, 30);
        assertThat(window.window()).isEqualTo(50.0);
        window.onAck(1, 5, 20_000, 10_000, 30);
        assertThat(window.window()).isEqualTo(30.0);
        window.onAck(1, 5, 40_000, 10_000, 30);
        assertThat(window.window()).as("held at the floor").isEqualTo(30.0);
        window.onTimeout();
        assertThat(window.packets()).as("a timeout still collapses it").isEqualTo(1);
    }

    @Test
    void shouldPaceToTheRateWithOneBurst() {
        final Pacer pacer = new Pacer(8_000_000_000L, 2000, 0); // 1 byte per ns
        assertThat(pacer.canSend(1000, 0)).isTrue();
        pacer.onSent(1000, 0);
        pacer.onSent(1000, 0);
        assertThat(pacer.canSend(1000, 0)).isFalse();
        assertThat(pacer.eligibleAtNs(1000, 0)).isEqualTo(1000);
        assertThat(pacer.canSend(1000, 1000)).isTrue();

        pacer.rate(800_000_000L, 1000); // 0.1 byte per ns
        pacer.onSent(1000, 1000);
        assertThat(pacer.eligibleAtNs(1000, 1000)).isEqualTo(1000 + 10_000);
    }

    @Test
    void shouldCompareSerialNumbersAcrossTheWrap() {
        assertThat(Serial.before(0xFFFF_FFFFL, 0)).isTrue();
        assertThat(Serial.before(0, 0xFFFF_FFFFL)).isFalse();
        assertThat(Serial.before(5, 5)).isFalse();
        assertThat(Serial.distance(0xFFFF_FFF0L, 0x10)).isEqualTo(0x20);
        assertThat(Serial.add(0xFFFF_FFFFL, 2)).isEqualTo(1);
    }

    @Test
    void shouldMapIntKeysLikeAMap() {
        final IntObjectMap<String> map = new IntObjectMap<>(2);
        final java.util.Map<Integer, String> reference = new java.util.HashMap<>();
        final java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < 20_000; i++) {
            final int key = random.nextInt(500) - 250;
            if (random.nextBoolean()) {
                assertThat(map.put(key, "v" + i)).isEqualTo(reference.put(key, "v" + i));
            } else {
                assertThat(map.remove(key)).isEqualTo(reference.remove(key));
            }
            assertThat(map.size()).isEqualTo(reference.size());
        }
        for (int key = -250; key < 250; key++) {
            assertThat(map.get(key)).isEqualTo(reference.get(key));
        }
    }
}
