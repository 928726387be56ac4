package org.mrconf.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulatorTest {
    private static final long SEED = 7L;

    private final Simulator simulator = new Simulator();
    private final List<String> log = new ArrayList<>();

    @Test
    void shouldRunEventsInTimeOrder() {
        simulator.schedule(300, () -> log.add("c@" + simulator.nowNs()));
        simulator.schedule(100, () -> log.add("a@" + simulator.nowNs()));
        simulator.schedule(200, () -> log.add("b@" + simulator.nowNs()));

        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(log).containsExactly("a@100", "b@200", "c@300");
    }

    @Test
    void shouldRunEqualTimeEventsInInsertionOrder() {
        for (int i = 0; i < 10; i++) {
            final int n = i;
            simulator.schedule(50, () -> log.add("e" + n));
        }

        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(log).containsExactly("e0", "e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9");
    }

    @Test
    void shouldRunEventScheduledForNowAfterTheCurrentOne() {
        simulator.schedule(10, () -> {
            log.add("first");
            simulator.schedule(10, () -> log.add("scheduled-from-first"));
        });
        simulator.schedule(10, () -> log.add("second"));

        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(log).containsExactly("first", "second", "scheduled-from-first");
    }

    @Test
    void shouldMatchSortedOrderForManyRandomEvents() {
        final SeededRandom random = new SeededRandom(SEED);
        final List<long[]> expected = new ArrayList<>();
        final List<Long> ran = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            final long timeNs = random.nextLong(500);
            final long id = i;
            expected.add(new long[] {timeNs, id});
            simulator.schedule(timeNs, (nowNs, arg) -> ran.add(arg), id);
        }
        expected.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));

        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(ran)
                .containsExactlyElementsOf(expected.stream().map(e -> e[1]).toList());
        assertThat(simulator.eventsRun()).isEqualTo(10_000);
    }

    @Test
    void shouldKeepOrderWhenEventsAreCancelledFromTheMiddle() {
        final SeededRandom random = new SeededRandom(SEED);
        final List<long[]> kept = new ArrayList<>();
        final List<Long> ran = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            final long timeNs = random.nextLong(200);
            final long handle = simulator.schedule(timeNs, (nowNs, arg) -> ran.add(arg), i);
            if (random.nextBoolean(0.3)) {
                assertThat(simulator.cancel(handle)).isTrue();
            } else {
                kept.add(new long[] {timeNs, i});
            }
        }
        kept.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));

        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(ran).containsExactlyElementsOf(kept.stream().map(e -> e[1]).toList());
    }

    @Test
    void shouldCancelOnlyPendingEvents() {
        final long handle = simulator.schedule(100, () -> log.add("cancelled"));
        simulator.schedule(200, () -> log.add("kept"));

        assertThat(simulator.cancel(handle)).isTrue();
        assertThat(simulator.cancel(handle)).isFalse();
        assertThat(simulator.cancel(Simulator.NO_EVENT)).isFalse();
        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(log).containsExactly("kept");
    }

    @Test
    void shouldNotCancelANewEventThroughAStaleHandleToItsSlot() {
        final long stale = simulator.schedule(100, () -> log.add("old"));
        simulator.runUntilIdle(Long.MAX_VALUE);
        simulator.schedule(200, () -> log.add("new"));

        assertThat(simulator.cancel(stale)).isFalse();
        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(log).containsExactly("old", "new");
    }

    @Test
    void shouldAdvanceClockToLimitInRunUntil() {
        simulator.schedule(100, () -> log.add("a"));
        simulator.schedule(900, () -> log.add("b"));

        final long ran = simulator.runUntil(500);

        assertThat(ran).isEqualTo(1);
        assertThat(simulator.nowNs()).isEqualTo(500);
        assertThat(simulator.nanoTime()).isEqualTo(500);
        assertThat(simulator.nextEventNs()).isEqualTo(900);
    }

    @Test
    void shouldRunEventsExactlyAtTheLimit() {
        simulator.schedule(500, () -> log.add("at-limit"));

        simulator.runUntil(500);

        assertThat(log).containsExactly("at-limit");
    }

    @Test
    void shouldStayAtLastEventTimeWhenIdle() {
        simulator.schedule(100, () -> log.add("a"));

        assertThat(simulator.runUntilIdle(1_000)).isTrue();
        assertThat(simulator.nowNs()).isEqualTo(100);
        assertThat(simulator.pendingEvents()).isZero();
        assertThat(simulator.nextEventNs()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void shouldReportNotIdleWhenLimitStopsRun() {
        simulator.schedule(100, () -> log.add("a"));
        simulator.schedule(2_000, () -> log.add("b"));

        assertThat(simulator.runUntilIdle(1_000)).isFalse();
        assertThat(simulator.nowNs()).isEqualTo(1_000);
        assertThat(log).containsExactly("a");
    }

    @Test
    void shouldStopRunWhileWhenConditionTurnsFalse() {
        for (int i = 1; i <= 10; i++) {
            simulator.schedule(i * 10L, () -> log.add("tick"));
        }

        final boolean done = simulator.runWhile(() -> log.size() < 3, Long.MAX_VALUE);

        assertThat(done).isTrue();
        assertThat(log).hasSize(3);
        assertThat(simulator.nowNs()).isEqualTo(30);
    }

    @Test
    void shouldGiveUpRunWhileAtLimitOrWhenIdle() {
        simulator.schedule(10, () -> log.add("tick"));
        simulator.schedule(5_000, () -> log.add("late"));

        assertThat(simulator.runWhile(() -> true, 1_000)).isFalse();
        assertThat(simulator.nowNs()).isEqualTo(1_000);
        assertThat(simulator.runWhile(() -> true, Long.MAX_VALUE)).isFalse();
        assertThat(log).containsExactly("tick", "late");
    }

    @Test
    void shouldRejectSchedulingInThePast() {
        simulator.runUntil(1_000);

        assertThatThrownBy(() -> simulator.schedule(999, () -> log.add("x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("atNs=999")
                .hasMessageContaining("nowNs=1000");
    }

    @Test
    void shouldRejectRunningFromInsideAnEvent() {
        simulator.schedule(10, () -> simulator.runUntil(20));

        assertThatThrownBy(() -> simulator.runUntilIdle(Long.MAX_VALUE)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void shouldStartAtTheGivenTime() {
        final Simulator late = new Simulator(1_000_000);

        assertThat(late.nowNs()).isEqualTo(1_000_000);
        assertThat(late.step()).isFalse();
    }

    @Test
    void shouldPassArgumentToHandler() {
        final List<Long> args = new ArrayList<>();
        simulator.schedule(5, (nowNs, arg) -> args.add(nowNs * 1000 + arg), 42);

        assertThat(simulator.step()).isTrue();
        assertThat(args).containsExactly(5042L);
    }
}
