package org.mrconf.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SenderClockTest {
    /** The DUT's clock reads this much less than the tester's at the same instant. */
    private static final long OFFSET_NS = 5_000_000_000L;

    @Test
    void shouldPlaceEachPacketAtItsSendTimePlusTheFastestPacketsDelay() {
        // Sent at 0, 10 and 20 ms by the tester's clock, on the link for 3 ms, 1 ms and 40 ms.
        final ReceivedPacket a = sent(0, 3_000_000);
        final ReceivedPacket b = sent(10_000_000, 1_000_000);
        final ReceivedPacket c = sent(20_000_000, 40_000_000);
        final SenderClock clock = SenderClock.from(List.of(a, b, c));

        assertThat(clock.sentNs(a)).isEqualTo(OFFSET_NS + 1_000_000);
        assertThat(clock.sentNs(b)).isEqualTo(OFFSET_NS + 11_000_000);
        // The packet held up on the link is placed at its send time, not at its late arrival.
        assertThat(clock.sentNs(c)).isEqualTo(OFFSET_NS + 21_000_000);
    }

    @Test
    void shouldNeverPlaceAPacketBeforeItWasSent() {
        final ReceivedPacket early = sent(0, 2_000_000);
        final ReceivedPacket late = sent(30_000_000, 500_000);
        final SenderClock clock = SenderClock.from(List.of(early));

        assertThat(clock.sentNs(late)).isGreaterThanOrEqualTo(OFFSET_NS + 30_000_000);
    }

    @Test
    void shouldCountAcrossTheWrapOfTheTransmitTimestamp() {
        // The DUT's 32-bit nanosecond timestamp wraps between the two packets.
        final long nearWrapNs = 0xFFFF_FFFFL - 1_000_000 - OFFSET_NS;
        final ReceivedPacket before = sentAt(nearWrapNs, 0xFFFF_FFFFL - 1_000_000, 100);
        final ReceivedPacket after = sentAt(nearWrapNs + 3_000_000, 1_999_999, 100);
        final SenderClock clock = SenderClock.from(List.of(before, after));

        assertThat(clock.sentNs(after) - clock.sentNs(before)).isEqualTo(3_000_000);
    }

    @Test
    void shouldRefuseAnEmptyReference() {
        assertThatThrownBy(() -> SenderClock.from(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    /** A data packet the DUT sent {@code sentNs} after its clock read zero, delayed {@code delayNs} on the link. */
    private static ReceivedPacket sent(final long sentNs, final long delayNs) {
        return sentAt(OFFSET_NS + sentNs, sentNs, delayNs);
    }

    private static ReceivedPacket sentAt(final long testerSentNs, final long timestamp, final long delayNs) {
        return PacketMatcherTest.received(
                PacketBuilder.write().transmitTimestamp(timestamp), testerSentNs + delayNs, true);
    }
}
