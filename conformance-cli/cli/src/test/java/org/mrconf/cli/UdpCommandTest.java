package org.mrconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A smoke run of {@code bench udp --quick} (four child JVMs on loopback, tiny WRITEs): the table appears
 * with every row, every WRITE completed with the sender's bytes, and the rates are positive and finite.
 * No rate is asserted: that is the benchmark's table, not a unit test's.
 */
class UdpCommandTest {
    @TempDir
    Path dir;

    @Test
    void shouldWriteTheTableWithEveryRowAndSaneNumbers() throws Exception {
        final StringWriter out = new StringWriter();
        final int exit = MetaroceCommand.commandLine(
                        new PrintWriter(out, true), new PrintWriter(new StringWriter(), true))
                .execute("bench", "udp", "--quick", "--out", dir.toString());

        assertThat(exit).as(out.toString()).isZero();
        final List<String> csv = Files.readAllLines(dir.resolve("udp.csv"));
        assertThat(csv.get(0)).startsWith("round,kind,paths,write_bytes,loss_rate,goodput_gbps,of_blaster,of_lossless");
        // 2 blaster rows, then 2 path counts x 2 WRITE sizes x (lossless, 1% loss).
        assertThat(csv).hasSize(1 + 2 + 2 * 2 * 2);
        assertThat(csv).anyMatch(line -> line.startsWith("1,BLASTER,8,0,"));
        assertThat(csv).anyMatch(line -> line.startsWith("1,METAROCE,8,262144,0.010,"));
        for (final String line : csv.subList(1, csv.size())) {
            final String[] f = line.split(",");
            final double goodput = Double.parseDouble(f[5]);
            assertThat(goodput).as(line).isPositive().isFinite();
            assertThat(Double.parseDouble(f[6])).as(line).isPositive().isFinite();
            assertThat(f[10]).as("every WRITE completed: " + line).isEqualTo(f[11]);
            assertThat(f[16])
                    .as("the receiver holds the sender's bytes: " + line)
                    .isEqualTo("true");
        }
        final String md = Files.readString(dir.resolve("udp.md"));
        assertThat(md)
                .contains("Made by `./metaroce bench udp --quick`", "Machine: ", "| UDP blaster | 1 |", "## Targets")
                .contains("| MetaRoCE | 1 | 64 KiB | 1.0% |", "| MetaRoCE | 8 | 256 KiB | 0.0% |");
        assertThat(out.toString()).contains("of the blaster", "of lossless", "wrote ");
    }
}
