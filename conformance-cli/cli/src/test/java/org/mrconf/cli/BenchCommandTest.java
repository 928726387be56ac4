package org.mrconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A smoke run of {@code bench loss --quick}: the files appear and hold every configuration. */
class BenchCommandTest {
    @TempDir
    Path dir;

    @Test
    void shouldWriteTheTableChartAndTargets() throws Exception {
        final StringWriter out = new StringWriter();
        final int exit = MetaroceCommand.commandLine(
                        new PrintWriter(out, true), new PrintWriter(new StringWriter(), true))
                .execute("bench", "loss", "--quick", "--out", dir.toString());

        assertThat(exit).isZero();
        final List<String> csv = Files.readAllLines(dir.resolve("loss.csv"));
        assertThat(csv.get(0)).startsWith("transport,paths,loss_rate,goodput_gbps,relative_goodput");
        assertThat(csv).hasSize(1 + 5 * 4);
        assertThat(csv).anyMatch(line -> line.startsWith("GO_BACK_N,1,0.100,"));
        assertThat(csv).anyMatch(line -> line.startsWith("METAROCE,64,0.010,"));
        assertThat(Files.readString(dir.resolve("loss.json"))).contains("\"pathFailure\"", "\"incast\"", "\"targets\"");
        assertThat(Files.readString(dir.resolve("loss.md"))).contains("| go-back-N baseline | 10.0% |", "## Targets");
        final String svg = Files.readString(dir.resolve("loss.svg"));
        assertThat(svg)
                .startsWith("<svg")
                .contains("<polyline")
                .contains("MetaRoCE 8 paths")
                .endsWith("</svg>\n");
        assertThat(out.toString()).contains("at 1% loss", "incast of 8 senders");
    }
}
