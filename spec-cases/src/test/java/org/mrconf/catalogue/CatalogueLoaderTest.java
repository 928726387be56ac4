package org.mrconf.catalogue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CatalogueLoaderTest {
    private static final String GOOD_CLAUSE = """
            {"id": "6.4.1", "title": "Retransmit", "level": "MUST", "profile": "core",
             "provenance": "PUB", "purpose": "Ensure that the DUT retransmits."}""";

    @TempDir
    Path dir;

    @Test
    void shouldLoadTheBundledCatalogue() throws Exception {
        final ClauseCatalogue catalogue = new CatalogueLoader().loadBundled();

        assertThat(catalogue.spec()).isEqualTo("MetaRoCE Open Draft");
        assertThat(catalogue.wireVersion()).isEqualTo("1.0");
        assertThat(catalogue.find("6.4.1"))
                .get()
                .extracting(Clause::level, Clause::profile)
                .containsExactly(Level.MUST, Profile.CORE);
        assertThat(catalogue.select(c -> c.profile() == Profile.LONG_HAUL))
                .extracting(Clause::id)
                .containsExactly("6.6.5");
    }

    @Test
    void shouldLoadAValidFile() throws Exception {
        final ClauseCatalogue catalogue = new CatalogueLoader().load(write(catalogueWith(GOOD_CLAUSE)));

        assertThat(catalogue.clauses()).extracting(Clause::id).containsExactly("6.4.1");
    }

    @Test
    void shouldNameTheFileAndFieldOfAnUnknownProfile() throws Exception {
        final Path file = write(catalogueWith(GOOD_CLAUSE.replace("\"core\"", "\"turbo\"")));

        assertThatThrownBy(() -> new CatalogueLoader().load(file))
                .isInstanceOf(CatalogueException.class)
                .hasMessageStartingWith(
                        file + ": clauses[0].profile: unknown profile 'turbo', expected one of core, ipv6");
    }

    @Test
    void shouldNameAMissingField() throws Exception {
        final Path file = write(catalogueWith(GOOD_CLAUSE.replace("\"title\": \"Retransmit\",", "")));

        assertThatThrownBy(() -> new CatalogueLoader().load(file))
                .isInstanceOf(CatalogueException.class)
                .hasMessage(file + ": clauses[0].title: missing");
    }

    @Test
    void shouldRejectDuplicateAndUnorderedIds() throws Exception {
        final Path duplicate = write(catalogueWith(GOOD_CLAUSE + "," + GOOD_CLAUSE));
        final Path unordered = write(catalogueWith(GOOD_CLAUSE + "," + GOOD_CLAUSE.replace("6.4.1", "6.3.9")));

        assertThatThrownBy(() -> new CatalogueLoader().load(duplicate))
                .hasMessage(duplicate + ": clauses[1].id: duplicate clause id 6.4.1");
        assertThatThrownBy(() -> new CatalogueLoader().load(unordered))
                .hasMessage(unordered + ": clauses[1].id: 6.3.9 is out of spec order after 6.4.1");
    }

    @Test
    void shouldRequireTheTestPurposeForm() throws Exception {
        final Path file = write(catalogueWith(GOOD_CLAUSE.replace("Ensure that the DUT retransmits.", "Retransmits.")));

        assertThatThrownBy(() -> new CatalogueLoader().load(file))
                .hasMessage(file + ": clauses[0].purpose: must start with \"Ensure that the DUT\"");
    }

    @Test
    void shouldReportInvalidJsonWithItsPosition() throws Exception {
        final Path file = write("{\"spec\": ");

        assertThatThrownBy(() -> new CatalogueLoader().load(file))
                .isInstanceOf(CatalogueException.class)
                .hasMessageStartingWith(file + ": (json): ")
                .hasMessageContaining("line 1");
    }

    @Test
    void shouldRejectUnknownFields() throws Exception {
        final Path file = write(catalogueWith(GOOD_CLAUSE.replace("\"level\"", "\"severity\": 1, \"level\"")));

        assertThatThrownBy(() -> new CatalogueLoader().load(file))
                .isInstanceOf(CatalogueException.class)
                .hasMessageStartingWith(file + ": clauses[0].severity: ");
    }

    @Test
    void shouldReportAMissingFile() {
        final Path file = dir.resolve("absent.json");

        assertThatThrownBy(() -> new CatalogueLoader().load(file)).hasMessage(file + ": (file): does not exist");
    }

    private static String catalogueWith(final String clauses) {
        return """
                {"spec": "MetaRoCE Open Draft", "specVersion": "0.1", "wireVersion": "1.0",
                 "document": "spec/metaroce-open-draft.md", "profiles": ["core"], "clauses": [%s]}
                """.formatted(clauses);
    }

    private Path write(final String json) throws Exception {
        final Path file = Files.createTempFile(dir, "catalogue", ".json");
        Files.writeString(file, json);
        return file;
    }
}
