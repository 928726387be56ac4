package org.mrconf.defect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DefectsTest {
    @Test
    void shouldParseFlagNamesAndConstantNames() {
        final Defects defects = Defects.parse("accept-bad-crc, STRICT_MINOR_VERSION");

        assertThat(defects.active()).containsExactly(Defect.ACCEPT_BAD_CRC, Defect.STRICT_MINOR_VERSION);
        assertThat(defects.names()).containsExactly("accept-bad-crc", "strict-minor-version");
        assertThat(defects.has(Defect.ACCEPT_BAD_CRC)).isTrue();
    }

    @Test
    void shouldMeanNoDefectWhenBlank() {
        assertThat(Defects.parse("  ")).isSameAs(Defects.NONE);
        assertThat(Defects.parse(null).isEmpty()).isTrue();
    }

    @Test
    void shouldListEveryKnownNameForAnUnknownOne() {
        assertThatThrownBy(() -> Defects.parse("accept-bad-crc,no-such-bug"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown defect \"no-such-bug\"")
                .hasMessageContaining("accept-bad-crc")
                .hasMessageContaining("strict-minor-version");
    }

    @Test
    void shouldNameAtLeastOneClauseForEveryDefect() {
        final Set<String> names = new HashSet<>();
        for (final Defect defect : Defect.values()) {
            assertThat(defect.clauses()).as(defect.name()).isNotEmpty();
            assertThat(defect.clauses()).as(defect.name()).allMatch(id -> id.matches("\\d+(\\.\\d+)+"));
            assertThat(names.add(defect.flagName())).as(defect.name()).isTrue();
        }
    }
}
