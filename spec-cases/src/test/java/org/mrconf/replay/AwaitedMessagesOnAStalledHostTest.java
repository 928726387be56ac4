package org.mrconf.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.mrconf.peer.StallMonitor;
import org.mrconf.replay.AwaitedMessages.Transmission;

/**
 * A sender vector whose awaited message never came whole while ACKs were withheld: NOT_APPLICABLE (the device's
 * windows) unless the DUT's timer fired after a host stall, when the attempt is undecided and replayed
 * ({@link AwaitedMessages#timerFiredInAStall}).
 */
class AwaitedMessagesOnAStalledHostTest {
    private static final long MS = 1_000_000L;
    private static final long START = 80_000 * MS;

    private static StallMonitor stalled(final long endsAfterMs, final long stallMs) {
        final StallMonitor monitor =
                new StallMonitor(() -> START, nanos -> {}, Duration.ofMillis(1), Duration.ofMillis(1), 16);
        monitor.record(START + endsAfterMs * MS, stallMs * MS);
        return monitor;
    }

    /** PSNs 0 to 2 on path 0 at 0, 1 and 2 ms, then PSN 0 again at {@code resendMs}: the timer fired. */
    private static List<Transmission> resentAt(final long resendMs) {
        return List.of(
                new Transmission(0, 0, START),
                new Transmission(0, 1, START + MS),
                new Transmission(0, 2, START + 2 * MS),
                new Transmission(0, 0, START + resendMs * MS));
    }

    @Test
    void shouldCallATimerThatFiredAfterAStallUndecided() {
        assertThat(AwaitedMessages.timerFiredInAStall(resentAt(150), stalled(120, 100)))
                .hasValueSatisfying(why ->
                        assertThat(why).contains("PSN 0 on path 0 resent").contains("stalled 100 ms"));
    }

    @Test
    void shouldLeaveTheWindowsToBlameWithoutAStallBeforeTheFirstResend() {
        // No stall: the device's windows held the message back, and its timer fired as it should.
        assertThat(AwaitedMessages.timerFiredInAStall(resentAt(150), StallMonitor.none()))
                .isEmpty();
        // Scheduling noise below the threshold.
        assertThat(AwaitedMessages.timerFiredInAStall(resentAt(150), stalled(120, 9)))
                .isEmpty();
        // A stall after the first resend cannot have fired it.
        assertThat(AwaitedMessages.timerFiredInAStall(resentAt(150), stalled(400, 100)))
                .isEmpty();
    }

    @Test
    void shouldLeaveTheWindowsToBlameWhenNothingWasResent() {
        final List<Transmission> sent = List.of(
                new Transmission(0, 0, START),
                new Transmission(1, 0, START + MS),
                new Transmission(0, 1, START + 2 * MS));
        assertThat(AwaitedMessages.timerFiredInAStall(sent, stalled(2, 100))).isEmpty();
        assertThat(AwaitedMessages.timerFiredInAStall(List.of(), stalled(2, 100)))
                .isEmpty();
    }

    private static org.mrconf.dut.DeviceDeclaration.Congestion windows(final int path, final int connection) {
        return new org.mrconf.dut.DeviceDeclaration.Congestion(
                0.5,
                100_000,
                0.95,
                Duration.ofMillis(1),
                path,
                connection,
                java.util.Set.of(),
                Duration.ofMillis(1),
                0);
    }

    @Test
    void shouldSeeRoomLeftOnlyBelowTheSmallerDeclaredWindow() {
        // The 7.5.2 vector under load: PSN 0 (lost) sent three times, PSN 1 once; the third WRITE never came.
        final List<Transmission> sent = resentAt(150).subList(0, 2);
        assertThat(AwaitedMessages.windowsLeftRoom(sent, windows(16, 64))).isTrue();
        assertThat(AwaitedMessages.windowsLeftRoom(resentAt(150), windows(16, 64)))
                .isTrue();
        // Windows of two or three packets: the DUT sent as many distinct PSNs as they allow.
        assertThat(AwaitedMessages.windowsLeftRoom(sent, windows(2, 64))).isFalse();
        assertThat(AwaitedMessages.windowsLeftRoom(resentAt(150), windows(16, 3)))
                .isFalse();
        // No declared first windows: nothing to compare with.
        assertThat(AwaitedMessages.windowsLeftRoom(sent, windows(0, 0))).isFalse();
    }
}
