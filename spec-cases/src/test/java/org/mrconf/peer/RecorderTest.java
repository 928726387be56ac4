package org.mrconf.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RecorderTest {
    private static final Duration WAIT = Duration.ofSeconds(2);
    private static final Duration SHORT = Duration.ofMillis(100);

    private final Links links = new Links();
    private final Recorder recorder = Recorder.start(links.link);

    @AfterEach
    void tearDown() {
        recorder.close();
        links.link.close();
    }

    @Test
    void shouldWaitForAPacketThatArrivesLater() {
        CompletableFuture.runAsync(
                () -> links.fromDut(PacketBuilder.ack().path(1).cumulativePsn(3).build(), 49_152),
                CompletableFuture.delayedExecutor(30, TimeUnit.MILLISECONDS));

        ReceivedPacket ack =
                recorder.await(0, PacketMatcher.expect().ack().path(1).covers(2), WAIT);

        assertThat(ack.index()).isZero();
        assertThat(ack.captured().sourcePort()).isEqualTo(49_152);
        assertThat(ack.receivedNs()).isEqualTo(links.clock.get());
    }

    @Test
    void shouldIgnoreWhatCameBeforeTheMark() {
        links.fromDut(PacketBuilder.ack().path(1).build(), 49_152);
        recorder.await(0, PacketMatcher.expect().ack(), WAIT);
        int mark = recorder.mark();

        assertThatThrownBy(() -> recorder.await(mark, PacketMatcher.expect().ack(), SHORT))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("the DUT sent nothing");
        assertThat(recorder.since(mark)).isEmpty();
        assertThat(recorder.all()).hasSize(1);
    }

    @Test
    void shouldExplainAFailedExpectationWithWhatWasReceived() {
        links.fromDut(PacketBuilder.ack().path(1).cumulativePsn(3).build(), 49_152);
        links.fromDut(PacketBuilder.write().badCrc().build(), 49_153);

        assertThatThrownBy(() -> recorder.await(0, PacketMatcher.expect().ack().path(2), SHORT))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("expected a packet matching ACK, path 2 within 100 ms, got 0 of 2 received:")
                .hasMessageContaining("mismatch: expected path 2, was 1")
                .hasMessageContaining("BAD_CRC (5.6.2)")
                .hasMessageContaining("mismatch: expected ACK, was no valid packet");
    }

    @Test
    void shouldCheckForSilence() {
        recorder.assertNone(0, PacketMatcher.expect().ack(), Duration.ofMillis(50));
        links.fromDut(PacketBuilder.nack(org.mrconf.wire.NackCode.BOUNDS).build(), 49_152);

        recorder.assertNone(0, PacketMatcher.expect().ack(), Duration.ofMillis(50));
        assertThatThrownBy(() -> recorder.assertNone(0, PacketMatcher.expect().nack(), SHORT))
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("expected no packet matching NACK, got 1:");
    }

    @Test
    void shouldCountMatchesAndTellListeners() {
        List<ReceivedPacket> heard = new CopyOnWriteArrayList<>();
        recorder.addListener(heard::add);
        for (int psn = 1; psn <= 3; psn++) {
            links.fromDut(PacketBuilder.ack().cumulativePsn(psn).build(), 49_152);
        }

        List<ReceivedPacket> acks =
                recorder.awaitCount(0, PacketMatcher.expect().ack(), 3, WAIT);

        assertThat(acks).extracting(ReceivedPacket::index).containsExactly(0L, 1L, 2L);
        assertThat(recorder.awaitQuiet(Duration.ofMillis(30), WAIT)).isEqualTo(3);
        assertThat(heard).hasSize(3);
        assertThat(recorder.failure()).isEmpty();
    }
}
