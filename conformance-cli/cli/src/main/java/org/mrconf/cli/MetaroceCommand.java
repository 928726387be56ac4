package org.mrconf.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code metaroce} command. Each job is a subcommand; this class only wires them together and
 * turns failures into one clear line and an exit code.
 */
@Command(
        name = "metaroce",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Open, independent conformance suite for the MetaRoCE transport (MetaRoCE Open Draft).",
            "Not Meta's specification or test suite."
        },
        subcommands = {
            RunCommand.class,
            ClausesCommand.class,
            ReportCommand.class,
            DutCommand.class,
            DeclarationCommand.class,
            BenchCommand.class,
            SelftestCommand.class,
            BundleCommand.class,
            AnalyzeCommand.class,
            ExploreCommand.class,
            VectorsCommand.class,
            CommandLine.HelpCommand.class
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:success (run: every applicable MUST clause passed)",
            "1:a conformance run found failures (or a MUST clause is inconclusive); dut check found a problem; selftest found a defect not caught",
            "2:bad input: an option, file or field that cannot be used (the message names it)",
            "3:a harness error, or the device was lost during the run"
        })
public final class MetaroceCommand implements Runnable {
    /** Exit code for input the user has to fix: options, files, fields. */
    public static final int EXIT_BAD_INPUT = 2;

    @Option(
            names = "--verbose",
            scope = CommandLine.ScopeType.INHERIT,
            description = "Print stack traces and details of errors.")
    boolean verbose;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Builds the command line with its error handling; tests call this with their own writers. */
    public static CommandLine commandLine(final PrintWriter out, final PrintWriter err) {
        final MetaroceCommand root = new MetaroceCommand();
        final CommandLine commandLine = new CommandLine(root);
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setExecutionExceptionHandler((exception, failed, parseResult) -> {
            failed.getErr().println("metaroce: " + UserErrors.describe(exception));
            if (root.verbose) {
                exception.printStackTrace(failed.getErr());
            } else {
                failed.getErr().println("(run with --verbose for details)");
            }
            failed.getErr().flush();
            return UserErrors.exitCode(exception);
        });
        return commandLine;
    }

    public static void main(final String[] args) {
        if (args.length > 1 && "dut".equals(args[0]) && "serve".equals(args[1])) {
            // A soft DUT logs its start, stop and one line per connection event; other commands (dut check against
            // the embedded reference among them) stay quiet.
            System.setProperty("org.slf4j.simpleLogger.log.org.mrconf.softdut", "info");
            System.setProperty("org.slf4j.simpleLogger.log.org.mrconf.agent", "info");
        }
        final PrintWriter out = new PrintWriter(System.out, true);
        final PrintWriter err = new PrintWriter(System.err, true);
        System.exit(commandLine(out, err).execute(args));
    }
}
