package org.mrconf.cases.congestion;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TieBreakTest {
    @Test
    @DisplayName("with equal acknowledgements both readings give the first tied path after the previous pick")
    void shouldAgreeWhenEveryTiedPathWasAcknowledgedAlike() {
        final TieBreak tie = TieBreak.of(new int[] {1, 1, 2, 1}, new int[] {2, 2, 2, 2}, 0);
        assertThat(tie.tied()).containsExactly(0, 1, 3);
        assertThat(tie.byFloor()).isEqualTo(1);
        assertThat(tie.byFraction()).isEqualTo(1);
        assertThat(List.of(tie.byFloor(), tie.byFraction())).doesNotContain(3);
        assertThat(List.of(tie.byFloor(), tie.byFraction()))
                .as("a path with more in flight is never tied")
                .doesNotContain(2);
    }

    @Test
    @DisplayName("the round-robin order wraps from the highest path to 0, and may come back to the previous path")
    void shouldWrapPastTheHighestPath() {
        assertThat(TieBreak.of(new int[] {1, 1, 1, 1}, new int[] {2, 2, 2, 2}, 3)
                        .byFloor())
                .isZero();
        assertThat(TieBreak.of(new int[] {2, 1, 2, 2}, new int[] {2, 2, 2, 2}, 1)
                        .byFloor())
                .as("the only tied path is the previous one")
                .isEqualTo(1);
    }

    @Test
    @DisplayName("counting fractions, only the most acknowledged tied paths tie, so the pick may differ")
    void shouldLetTheMostAcknowledgedPathWinUnderTheFractionalReading() {
        final TieBreak tie = TieBreak.of(new int[] {1, 1, 1, 1}, new int[] {2, 4, 2, 2}, 1);
        assertThat(tie.byFloor()).isEqualTo(2);
        assertThat(tie.byFraction())
                .as("path 1's window holds two more 1/W increments")
                .isEqualTo(1);
        assertThat(List.of(tie.byFloor(), tie.byFraction())).contains(1);
        assertThat(List.of(tie.byFloor(), tie.byFraction())).contains(2);
        assertThat(List.of(tie.byFloor(), tie.byFraction())).doesNotContain(0);
        assertThat(List.of(tie.byFloor(), tie.byFraction())).doesNotContain(3);
    }

    @Test
    @DisplayName("a more acknowledged path that is not tied does not take the tie under either reading")
    void shouldIgnoreAcknowledgementsOfPathsWithMoreInFlight() {
        final TieBreak tie = TieBreak.of(new int[] {1, 1, 2, 1}, new int[] {3, 2, 9, 2}, 0);
        assertThat(tie.byFloor()).isEqualTo(1);
        assertThat(tie.byFraction())
                .as("path 0 is the most acknowledged of the tied paths")
                .isZero();
    }
}
