package org.mrconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClausesCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void shouldListTheWholeCatalogue() {
        final int exit = run("clauses");

        assertThat(exit).isZero();
        assertThat(out.toString())
                .contains("6.4.1    MUST   core       PUB  Retransmit exactly the missing packet")
                .contains("129 of 129 clauses")
                .contains("Not Meta's specification");
    }

    @Test
    void shouldFilterByProfileAndLevel() {
        final int exit = run("clauses", "--profile", "multipath,long-haul", "--level", "MUST", "--format", "ids");

        assertThat(exit).isZero();
        assertThat(out.toString().lines()).containsExactly("3.1.3", "6.6.4", "6.6.5", "6.7.1", "6.7.2", "10.2.1");
    }

    @Test
    void shouldPrintJson() {
        assertThat(run("clauses", "--provenance", "ENG", "--level", "MAY", "--format", "json"))
                .isZero();
        assertThat(out.toString()).contains("\"id\" : \"6.3.3\"").contains("\"profile\" : \"core\"");
    }

    @Test
    void shouldRejectAnUnknownProfileWithExitCodeTwo() {
        final int exit = run("clauses", "--profile", "turbo");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("unknown profile 'turbo'").doesNotContain("\tat ");
    }

    @Test
    void shouldNameTheFileAndFieldOfABadCatalogueWithoutAStackTrace() throws Exception {
        final Path file = dir.resolve("bad.json");
        Files.writeString(
                file,
                "{\"spec\": \"x\", \"specVersion\": \"0.1\", \"wireVersion\": \"1.0\", \"clauses\": [{\"id\": \"x\"}]}");

        final int exit = run("clauses", "--catalogue", file.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString())
                .startsWith("metaroce: " + file + ": clauses[0].id: 'x' is not a clause id like 6.4.1")
                .doesNotContain("\tat ");
    }

    @Test
    void shouldPrintTheStackTraceWhenVerbose() throws Exception {
        final Path file = dir.resolve("missing.json");

        final int exit = run("--verbose", "clauses", "--catalogue", file.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("does not exist").contains("\tat ");
    }

    @Test
    void shouldConfirmThatTheSpecAndCatalogueAgree() {
        final int exit = run(
                "clauses",
                "--format",
                "ids",
                "--check-spec",
                System.getProperty("mrconf.root", "../..") + "/spec/metaroce-open-draft.md");

        assertThat(exit).isZero();
        assertThat(err.toString()).contains("spec and catalogue agree");
    }

    @Test
    void shouldReportTheSpecAndWireVersions() {
        assertThat(run("--version")).isZero();
        assertThat(out.toString()).contains("MetaRoCE Open Draft 0.15, wire version 1.0");
    }

    private int run(final String... args) {
        return MetaroceCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                .execute(args);
    }
}
