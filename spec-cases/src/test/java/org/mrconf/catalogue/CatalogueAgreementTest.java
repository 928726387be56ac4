package org.mrconf.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The spec document and the bundled catalogue must agree clause for clause, in both directions. */
class CatalogueAgreementTest {
    private static final Path SPEC = Path.of("..", "spec", "metaroce-open-draft.md");

    private List<String> specLines;
    private ClauseCatalogue catalogue;

    @BeforeEach
    void load() throws Exception {
        specLines = Files.readAllLines(SPEC, StandardCharsets.UTF_8);
        catalogue = new CatalogueLoader().loadBundled();
    }

    @Test
    void shouldAgreeWithTheSpecDocument() throws Exception {
        final SpecDocument spec = SpecDocument.read(SPEC);

        assertThat(CatalogueAgreement.disagreements(spec, catalogue)).isEmpty();
        assertThat(spec.clauses()).hasSameSizeAs(catalogue.clauses());
        assertThat(spec.clauses()).hasSizeGreaterThan(90);
    }

    @Test
    void shouldReportAClauseMissingFromTheCatalogue() throws Exception {
        final List<String> lines = new ArrayList<>(specLines);
        final int at = lines.indexOf("#### 6.4.1 Retransmit exactly the missing packet");
        lines.addAll(
                at,
                List.of(
                        "#### 6.4.9 A clause nobody catalogued",
                        "**Level:** MUST · **Profile:** core · **Provenance:** ENG",
                        "",
                        "*Rationale:* test.",
                        ""));

        assertThat(CatalogueAgreement.disagreements(SpecDocument.parse("spec.md", lines), catalogue))
                .containsExactly("6.4.9: in the document (line " + (at + 1) + ") but not in the catalogue");
    }

    @Test
    void shouldReportAClauseMissingFromTheDocument() throws Exception {
        final List<String> lines = new ArrayList<>(specLines);
        final int at = lines.indexOf("#### 6.4.1 Retransmit exactly the missing packet");
        lines.remove(at + 1);
        lines.remove(at);

        assertThat(CatalogueAgreement.disagreements(SpecDocument.parse("spec.md", lines), catalogue))
                .containsExactly("6.4.1: in the catalogue but not in the document");
    }

    @Test
    void shouldReportADifferentLevelProfileOrTitle() throws Exception {
        final List<String> lines = new ArrayList<>(specLines);
        final int at = lines.indexOf("#### 6.4.3 One fast retransmission per RTT");
        lines.set(at, "#### 6.4.3 One fast retransmission per round trip");
        lines.set(at + 1, "**Level:** MUST · **Profile:** multipath · **Provenance:** ENG");

        assertThat(CatalogueAgreement.disagreements(SpecDocument.parse("spec.md", lines), catalogue))
                .containsExactly(
                        "6.4.3: title differs: document 'One fast retransmission per round trip', catalogue 'One fast retransmission per RTT'",
                        "6.4.3: level differs: document 'MUST', catalogue 'SHOULD'",
                        "6.4.3: profile differs: document 'multipath', catalogue 'core'");
    }

    @Test
    void shouldReportAClauseWithoutItsProvenanceNote() throws Exception {
        final List<String> lines = new ArrayList<>(specLines);
        final int at = lines.indexOf("#### 6.4.3 One fast retransmission per RTT");
        for (int i = at + 2; !lines.get(i).startsWith("#"); i++) {
            if (lines.get(i).startsWith("*Rationale:*")) {
                lines.set(i, "Rationale omitted.");
            }
        }

        assertThat(CatalogueAgreement.disagreements(SpecDocument.parse("spec.md", lines), catalogue))
                .containsExactly("6.4.3: ENG clause at line " + (at + 1) + " has no *Rationale:* paragraph");
    }

    @Test
    void shouldRejectAMalformedLevelLineWithItsLineNumber() {
        final List<String> lines = new ArrayList<>(specLines);
        final int at = lines.indexOf("#### 6.4.3 One fast retransmission per RTT");
        lines.set(at + 1, "**Level:** SHOULD, **Profile:** core");

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SpecDocument.parse("spec.md", lines))
                .isInstanceOf(CatalogueException.class)
                .hasMessage("spec.md: line " + (at + 2) + ": level line of clause 6.4.3 does not read "
                        + "'**Level:** L · **Profile:** P · **Provenance:** PUB|ENG'");
    }

    @Test
    void shouldReadTheSpecVersionFromTheFrontMatter() throws Exception {
        assertThat(SpecDocument.read(SPEC).specVersion())
                .isEqualTo(catalogue.specVersion())
                .isEqualTo("0.15");
    }
}
