package org.mrconf.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Level;
import org.mrconf.catalogue.Profile;
import org.mrconf.verdict.CaseKind;

class SelectionTest {
    @Test
    void shouldMatchClausesExactlyByGlobAndBySection() {
        assertThat(Selection.clauseMatches("6.4.2", "6.4.2")).isTrue();
        assertThat(Selection.clauseMatches("6.4.*", "6.4.2")).isTrue();
        assertThat(Selection.clauseMatches("6.4", "6.4.2")).isTrue();
        assertThat(Selection.clauseMatches("6", "6.4.2")).isTrue();
        assertThat(Selection.clauseMatches("6.4", "6.41.2")).isFalse();
        assertThat(Selection.clauseMatches("6.4.*", "7.4.1")).isFalse();
        assertThat(Selection.clauseMatches("6.4.2", "6.4.21")).isFalse();
    }

    @Test
    void shouldCombinePartsWithAnd() throws Exception {
        final Method read = Fixture.class.getDeclaredMethod("read");
        final Selection clause = new Selection(List.of("7.4.*"), Set.of(), Set.of(), Set.of(), List.of());
        final Selection profile = new Selection(List.of(), Set.of(Profile.READ), Set.of(), Set.of(), List.of());
        final Selection level = new Selection(List.of(), Set.of(), Set.of(Level.MAY), Set.of(), List.of());
        final Selection kind = new Selection(List.of(), Set.of(), Set.of(), Set.of(CaseKind.INVALID), List.of());
        final Selection name = new Selection(List.of(), Set.of(), Set.of(), Set.of(), List.of("Fixture.r*"));
        final Selection both =
                new Selection(List.of("7.4.1"), Set.of(Profile.MULTIPATH), Set.of(), Set.of(), List.of());

        assertThat(clause.includes(read, "Fixture.read", CaseKind.VALID)).isTrue();
        assertThat(profile.includes(read, "Fixture.read", CaseKind.VALID)).isTrue();
        assertThat(level.includes(read, "Fixture.read", CaseKind.VALID)).isFalse();
        assertThat(kind.includes(read, "Fixture.read", CaseKind.VALID)).isFalse();
        assertThat(name.includes(read, "Fixture.read", CaseKind.VALID)).isTrue();
        assertThat(both.includes(read, "Fixture.read", CaseKind.VALID)).isFalse();
        assertThat(Selection.ALL.includes(read, "Fixture.read", CaseKind.VALID)).isTrue();
        assertThat(both.describe()).containsEntry("clause", "7.4.1").containsEntry("profile", "multipath");
    }

    @Test
    void shouldSelectAVectorByItsSidecarsClausesAsACase() {
        final List<String> clauses = List.of("7.4.1");
        final Selection profile = new Selection(List.of(), Set.of(Profile.READ), Set.of(), Set.of(), List.of());
        final Selection level = new Selection(List.of(), Set.of(), Set.of(Level.MAY), Set.of(), List.of());
        final Selection kind = new Selection(List.of(), Set.of(), Set.of(), Set.of(CaseKind.INVALID), List.of());
        final Selection name = new Selection(List.of(), Set.of(), Set.of(), Set.of(), List.of("vector:read-*"));

        assertThat(profile.includesVector("vector:read-1", clauses, CaseKind.VALID))
                .isTrue();
        assertThat(profile.includesVector("vector:read-1", List.of("12.9.9"), CaseKind.VALID))
                .as("a clause the catalogue lacks has no profile")
                .isFalse();
        assertThat(level.includesVector("vector:read-1", clauses, CaseKind.VALID))
                .isFalse();
        assertThat(kind.includesVector("vector:read-1", clauses, CaseKind.INVALID))
                .isTrue();
        assertThat(name.includesVector("vector:write-1", clauses, CaseKind.VALID))
                .isFalse();
        assertThat(Selection.ALL.includesVector("vector:write-1", List.of(), CaseKind.VALID))
                .isTrue();
    }

    static final class Fixture {
        @Verifies("7.4.1")
        void read() {}
    }
}
