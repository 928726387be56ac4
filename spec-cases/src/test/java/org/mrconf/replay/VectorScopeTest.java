package org.mrconf.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A run's vector scope: its root and the clause patterns a vector must match, with the runner's pattern rules. */
class VectorScopeTest {
    @Test
    void shouldReadTheRootAndTheClausePatternsOfARun() {
        final VectorScope scope = VectorScope.of(Optional.of("corpus"), Optional.of(" 7.1.1, 5.6.* ,,11"));
        assertThat(scope.root()).isEqualTo(Path.of("corpus"));
        assertThat(scope.clausePatterns()).containsExactly("7.1.1", "5.6.*", "11");
    }

    @Test
    void shouldDefaultToTheWorkingDirectorysCorpusAndEveryVector() {
        final VectorScope scope = VectorScope.of(Optional.empty(), Optional.empty());
        assertThat(scope.root()).isEqualTo(Path.of(VectorScope.DEFAULT_ROOT));
        assertThat(scope.clausePatterns()).isEmpty();
    }

    @Test
    void shouldMatchClausesExactlyByGlobOrBySectionPrefix() {
        assertThat(VectorScope.clauseMatches("7.1.1", "7.1.1")).isTrue();
        assertThat(VectorScope.clauseMatches("7.1.1", "7.1.10")).isFalse();
        assertThat(VectorScope.clauseMatches("7.1", "7.1.2")).isTrue();
        assertThat(VectorScope.clauseMatches("7", "7.5.5")).isTrue();
        assertThat(VectorScope.clauseMatches("7", "17.1.1")).isFalse();
        assertThat(VectorScope.clauseMatches("5.6.*", "5.6.3")).isTrue();
        assertThat(VectorScope.clauseMatches("5.?.3", "5.6.3")).isTrue();
        assertThat(VectorScope.clauseMatches("5.6.*", "5.7.1")).isFalse();
        assertThat(new VectorScope(Path.of("x"), List.of()).clausePatterns()).isEmpty();
    }

    @Test
    void shouldSelectVectorsByTheirCaseIdWithTheRunnersGlobs() throws Exception {
        final VectorCorpus corpus = VectorCorpus.discover(
                Path.of("..", "test-vectors"), new org.mrconf.catalogue.CatalogueLoader().loadBundled());
        final VectorScope read = VectorScope.of(Optional.empty(), Optional.empty(), Optional.of("vector:7.4.*"));
        // Exactly the folders under 7.4.x, whatever the corpus holds there (it grows).
        final List<String> folders74 = corpus.vectors().stream()
                .map(TestVector::id)
                .filter(id -> id.startsWith("7.4."))
                .toList();
        assertThat(folders74).contains("7.4.1/read-request-answered", "7.4.2/read-answered-out-of-order");
        assertThat(corpus.vectors().stream().filter(read::includes).map(TestVector::id))
                .containsExactlyInAnyOrderElementsOf(folders74);
        final VectorScope all = VectorScope.of(Optional.empty(), Optional.empty(), Optional.of("vector:*"));
        assertThat(corpus.vectors()).allMatch(all::includes);
        final VectorScope cases = VectorScope.of(Optional.empty(), Optional.empty(), Optional.of("Integrity*"));
        assertThat(corpus.vectors()).noneMatch(cases::includes);
        final VectorScope both =
                VectorScope.of(Optional.empty(), Optional.of("7.4.2"), Optional.of("vector:7.4.*, ReadCase.*"));
        assertThat(corpus.vectors().stream().filter(both::includes).map(TestVector::id))
                .containsExactly("7.4.2/read-answered-out-of-order");
    }
}
