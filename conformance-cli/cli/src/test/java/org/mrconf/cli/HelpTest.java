package org.mrconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The help of every command and subcommand (issue 35): {@code --help} prints no picocli warning, and no description
 * line stops mid-sentence (picocli lists a command by the first line of its description, so every line must read
 * on its own).
 */
class HelpTest {
    @Test
    void everyHelpPrintsWithoutAPicocliWarning() {
        for (final List<String> path : commandPaths()) {
            final StringWriter out = new StringWriter();
            final StringWriter err = new StringWriter();
            final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
            final PrintStream saved = System.err;
            final int exit;
            System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
            try {
                final List<String> args = new ArrayList<>(path);
                args.add("--help");
                exit = MetaroceCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                        .execute(args.toArray(String[]::new));
            } finally {
                System.setErr(saved);
            }
            final String all = out + "\n" + err + "\n" + stderr.toString(StandardCharsets.UTF_8);
            assertThat(exit).as("%s --help: %s", path, all).isZero();
            assertThat(all).as("%s --help", path).doesNotContain("picocli WARN").doesNotContain("Conversion =");
            assertThat(out.toString()).as("%s --help", path).contains("Usage:");
        }
    }

    @Test
    void everyDescriptionLineEndsASentence() {
        final List<String> unfinished = new ArrayList<>();
        for (final CommandSpec spec : commands(MetaroceCommand.commandLine(
                        new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter())))
                .toList()) {
            for (final String line : spec.usageMessage().description()) {
                if (!endsASentence(line)) {
                    unfinished.add(spec.qualifiedName() + ": " + line);
                }
            }
            final List<ArgSpec> args = new ArrayList<>(spec.options());
            args.addAll(spec.positionalParameters());
            for (final ArgSpec arg : args) {
                for (final String line : arg.description()) {
                    if (!endsASentence(line)) {
                        unfinished.add(spec.qualifiedName() + " " + arg + ": " + line);
                    }
                }
            }
        }
        assertThat(unfinished).as("description lines that stop mid-sentence").isEmpty();
    }

    @Test
    void aDutThatIsNeitherAFileNorAFormIsRefusedListingTheForms() {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final int exit = MetaroceCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                .execute("run", "--dut", "foo");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString())
                .contains("--dut: foo: no such file, and not one of the forms --dut takes:")
                .contains("reference?defect=NAME[,NAME]", "udp://HOST:PORT", "iface:NAME", "FILE")
                .doesNotContain("\tat ");
    }

    @Test
    void runHelpListsEveryFormOfDut() {
        final StringWriter out = new StringWriter();
        MetaroceCommand.commandLine(new PrintWriter(out, true), new PrintWriter(new StringWriter(), true))
                .execute("run", "--help");

        assertThat(out.toString().replaceAll("\\s+", " "))
                .contains("reference: the embedded reference")
                .contains("reference?defect=NAME[,NAME]:")
                .contains("reference?config=NAME:")
                .contains("udp://HOST:PORT[?control=P&token=T]:")
                .contains("iface:NAME[?dut=IP&tester=IP&control=P&token=T]:")
                .contains("FILE: a device declaration JSON file");
    }

    private static boolean endsASentence(final String line) {
        // picocli turns a trailing %n into a line break (its own help command's description ends so)
        final String text = line.strip().replaceAll("(%n)+$", "");
        return text.isEmpty() || text.endsWith(".") || text.endsWith("!") || text.endsWith("?") || text.endsWith(".)");
    }

    /** The argument paths of every command and subcommand: [], [run], [dut], [dut, check], ... */
    private static List<List<String>> commandPaths() {
        final List<List<String>> paths = new ArrayList<>();
        collect(
                MetaroceCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter())),
                List.of(),
                paths);
        return paths;
    }

    private static void collect(final CommandLine command, final List<String> path, final List<List<String>> into) {
        into.add(path);
        command.getSubcommands().forEach((name, sub) -> {
            if (sub.getCommandName().equals(name) && !name.equals("help")) {
                final List<String> next = new ArrayList<>(path);
                next.add(name);
                collect(sub, next, into);
            }
        });
    }

    private static Stream<CommandSpec> commands(final CommandLine command) {
        return Stream.concat(
                Stream.of(command.getCommandSpec()),
                command.getSubcommands().entrySet().stream()
                        .filter(e -> e.getValue().getCommandName().equals(e.getKey()))
                        .flatMap(e -> commands(e.getValue())));
    }
}
