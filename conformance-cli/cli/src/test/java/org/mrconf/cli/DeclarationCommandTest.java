package org.mrconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DeclarationLoader;
import org.mrconf.dut.DeviceDeclaration;

class DeclarationCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void shouldWriteACommentedTemplateThatLoadsAsWritten() throws Exception {
        final Path file = dir.resolve("nic.json");

        assertThat(run("declaration", "new", "--out", file.toString())).isZero();

        final String text = Files.readString(file);
        assertThat(text).contains("\"//\"").contains("./metaroce dut check");
        final DeviceDeclaration profile = new DeclarationLoader(new CatalogueLoader().loadBundled()).load(file);
        assertThat(profile.claims(Profile.CORE)).isTrue();
        assertThat(profile.link().kind()).isEqualTo(DeviceDeclaration.LinkKind.UDP);
        assertThat(out.toString()).contains("wrote " + file);
    }

    @Test
    void shouldPrintTheTemplateWithoutOutAndRefuseToOverwrite() throws Exception {
        assertThat(run("profile", "new"))
                .as("the deprecated old name still works")
                .isZero();
        assertThat(out.toString()).isEqualTo(DeclarationCommand.template());

        final Path file = Files.writeString(dir.resolve("taken.json"), "{}");
        assertThat(run("profile", "new", "--out", file.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("already exists");
        assertThat(Files.readString(file)).isEqualTo("{}");
    }

    @Test
    void shouldStillNameTheFieldOfAMistakeBesideComments() throws Exception {
        final Path file = dir.resolve("bad.json");
        Files.writeString(
                file,
                DeclarationCommand.template().replace("\"mtu\": 4176,\n    \"paths\"", "\"mtu\": 9,\n    \"paths\""));

        final int exit = run("run", "--dut", file.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("parameters.mtu");
    }

    private int run(final String... args) {
        return MetaroceCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                .execute(args);
    }
}
