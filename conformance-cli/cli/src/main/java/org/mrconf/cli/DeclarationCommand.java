package org.mrconf.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code metaroce declaration}: the device declaration a vendor fills in, the first thing a NIC team writes.
 *
 * <p>"Profile" means only the spec's feature sets (core, read, multipath, ...); the device's file is its declaration.
 * {@code profile} stays an alias of this command, deprecated, so that scripts written before the rename still run.
 */
@Command(
        name = "declaration",
        aliases = "profile",
        mixinStandardHelpOptions = true,
        description = {
            "Device declarations: what a device declares to the suite (which profiles it claims, its addresses,"
                    + " timers and limits).",
            "`profile` is the deprecated old name of this command."
        },
        subcommands = {DeclarationCommand.New.class})
final class DeclarationCommand implements Runnable {
    static final String TEMPLATE = "/org/mrconf/cli/declaration-template.json";

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The template as bundled; tests load it to prove it is accepted as written. */
    static String template() throws IOException {
        try (InputStream in = DeclarationCommand.class.getResourceAsStream(TEMPLATE)) {
            if (in == null) {
                throw new IOException("the declaration template is missing from this build: " + TEMPLATE);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** {@code metaroce declaration new}: writes the commented template. */
    @Command(
            name = "new",
            mixinStandardHelpOptions = true,
            description = {
                "Write a commented template declaration to fill in (to standard output without --out).",
                "It loads as written; check it with ./metaroce dut check --dut FILE."
            })
    static final class New implements Callable<Integer> {
        @Option(names = "--out", paramLabel = "FILE", description = "The file to write; it must not exist yet.")
        Path out;

        @Option(names = "--force", description = "Overwrite --out if it exists.")
        boolean force;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            final PrintWriter console = spec.commandLine().getOut();
            final String template = template();
            if (out == null) {
                console.print(template);
                console.flush();
                return 0;
            }
            if (Files.exists(out) && !force) {
                throw new ParameterException(
                        spec.commandLine(), "--out " + out + " already exists; choose another file or add --force");
            }
            final Path parent = out.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(out, template, StandardCharsets.UTF_8);
            console.println("wrote " + out + ": fill in every value, then ./metaroce dut check --dut " + out);
            console.flush();
            return 0;
        }
    }
}
