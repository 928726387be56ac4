package org.mrconf.cli;

import java.io.PrintWriter;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.mrconf.bundle.BundleCreator;
import org.mrconf.bundle.BundleInputException;
import org.mrconf.bundle.BundleVerifier;
import org.mrconf.bundle.Problem;
import org.mrconf.bundle.ReportModule;
import org.mrconf.bundle.SigningKeys;
import org.mrconf.bundle.SuiteCases;
import org.mrconf.bundle.SuiteIdentity;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.report.Terminal;
import org.mrconf.runner.BuildInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code metaroce bundle}: signed submission bundles for review. {@code keygen} makes an Ed25519 key pair,
 * {@code create} turns a run folder into a signed bundle, {@code verify} checks one offline. See docs/submitting.md.
 */
@Command(
        name = "bundle",
        mixinStandardHelpOptions = true,
        description = {
            "Signed, verifiable submission bundles of a conformance run (see docs/submitting.md).",
        },
        subcommands = {BundleCommand.Keygen.class, BundleCommand.Create.class, BundleCommand.Verify.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:done; for verify: the bundle is acceptable",
            "1:verify: the bundle is not acceptable (one line per problem)",
            "2:bad input: a file, key or option that cannot be used (the message names it)"
        })
final class BundleCommand implements Runnable {
    /** Exit code of verify for a bundle with problems. */
    static final int EXIT_NOT_ACCEPTABLE = 1;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The verifier of this build: its catalogue, its cases, its version and commit. */
    static BundleVerifier verifier() throws Exception {
        return new BundleVerifier(
                ReportModule.reader(),
                ReportModule.validator(),
                new CatalogueLoader().loadBundled(),
                SuiteCases.discover(),
                suiteIdentity());
    }

    /** The version and commit this build stamps on its runs ({@link BuildInfo}), so a bundle compares alike. */
    static SuiteIdentity suiteIdentity() {
        final BuildInfo build = BuildInfo.current();
        return new SuiteIdentity(build.version(), build.commit());
    }

    /** Runs a step, turning input errors into one line and exit 2. */
    static int guarded(final PrintWriter err, final Callable<Integer> step) throws Exception {
        try {
            return step.call();
        } catch (BundleInputException e) {
            err.println("metaroce: " + e.getMessage());
            err.flush();
            return MetaroceCommand.EXIT_BAD_INPUT;
        } catch (FileAlreadyExistsException e) {
            err.println("metaroce: " + e.getFile() + ": already exists; " + e.getReason());
            err.flush();
            return MetaroceCommand.EXIT_BAD_INPUT;
        }
    }

    @Command(
            name = "keygen",
            mixinStandardHelpOptions = true,
            description = {
                "Make an Ed25519 key pair for signing bundles.",
                "KEY is the private key (PKCS#8 PEM, keep it secret), KEY.pub the public one (X.509 PEM: publish it so"
                        + " reviewers can check your bundles)."
            })
    static final class Keygen implements Callable<Integer> {
        @Option(
                names = "--out",
                paramLabel = "KEY",
                defaultValue = "metaroce-signing.key",
                description =
                        "The private key file; the public key goes beside it as KEY.pub. Default: ${DEFAULT-VALUE}.")
        Path out;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            final PrintWriter stdout = spec.commandLine().getOut();
            return guarded(spec.commandLine().getErr(), () -> {
                final KeyPair pair = SigningKeys.generate();
                SigningKeys.writePair(pair, out);
                stdout.printf("Private key: %s (keep it secret; it cannot be recovered)%n", out);
                stdout.printf(
                        "Public key:  %s (publish it; reviewers verify with it)%n", SigningKeys.publicKeyFileOf(out));
                stdout.printf("Fingerprint: %s%n", SigningKeys.fingerprint(pair.getPublic()));
                stdout.flush();
                return 0;
            });
        }
    }

    @Command(
            name = "create",
            mixinStandardHelpOptions = true,
            description = {
                "Make a submission bundle from a run folder.",
                "The bundle is a directory and a .tar.gz with product.json, the reports and evidence, the suite and"
                        + " environment, a README on reproducing the run, a SHA-256 manifest of every file and an"
                        + " Ed25519 signature over it. Then preview what a reviewer's verify would report."
            })
    static final class Create implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "RUN_DIR", description = "The run folder metaroce run wrote.")
        Path runDir;

        @Option(
                names = "--key",
                paramLabel = "KEY",
                description = "The private signing key (metaroce bundle keygen); KEY.pub must sit beside it."
                        + " Without it the bundle is unsigned and verify rejects it.")
        Path key;

        @Option(
                names = "--out",
                paramLabel = "FILE",
                description = "The bundle archive, ending in .tar.gz; the directory goes beside it without the"
                        + " suffix. Default: RUN_DIR-bundle.tar.gz beside the run folder.")
        Path out;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            final PrintWriter stdout = spec.commandLine().getOut();
            final PrintWriter err = spec.commandLine().getErr();
            return guarded(err, () -> {
                final Optional<KeyPair> pair = Optional.ofNullable(key).map(SigningKeys::readPair);
                final Path archive = out == null ? BundleCreator.defaultArchive(runDir) : out;
                final BundleCreator.Created created = new BundleCreator(
                                ReportModule.reader(), BundleCreator.hostFacts())
                        .create(runDir, pair, archive);
                stdout.printf("Bundle directory: %s (%d files)%n", created.directory(), created.files());
                stdout.printf("Bundle archive:   %s%n", created.archive());
                stdout.printf(
                        "Signed by:        %s%n",
                        created.fingerprint()
                                .orElse("nobody: unsigned (pass --key; verify rejects an unsigned bundle)"));
                for (final String skipped : created.skipped()) {
                    err.printf("note: %s in the run folder is not a report or evidence; left out%n", skipped);
                }
                final BundleVerifier.Verification preview =
                        verifier().verify(created.directory(), pair.map(KeyPair::getPublic));
                if (preview.acceptable() && preview.notFullyExercised().isEmpty()) {
                    stdout.println("A reviewer's verify finds no problem.");
                } else if (preview.acceptable()) {
                    stdout.println("A reviewer's verify finds no problem; it will say: " + preview.summary());
                } else {
                    stdout.printf(
                            "A reviewer's verify will report %d problem(s):%n",
                            preview.problems().size());
                    preview.problems().forEach(p -> stdout.println("  " + Terminal.safe(p.toString())));
                }
                stdout.flush();
                err.flush();
                return 0;
            });
        }
    }

    @Command(
            name = "verify",
            mixinStandardHelpOptions = true,
            description = {
                "Check a bundle fully offline.",
                "It checks the signature and every hash, the reports against their schemas, the summary against the"
                        + " clause and case verdicts, that every MUST clause of every claimed profile was run, that no"
                        + " planted defect was active, the suite and spec versions, that the run was not interrupted,"
                        + " and that every applicable MUST clause passed.",
                "Exit 0 means acceptable; otherwise exit 1 and one line per problem. An acceptable bundle whose MUST"
                        + " clauses were not all fully exercised (PASS (partial): a case the link or configuration"
                        + " could not carry) says which."
            })
    static final class Verify implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "BUNDLE", description = "A bundle .tar.gz or bundle directory.")
        Path bundle;

        @Option(
                names = "--pubkey",
                paramLabel = "KEY",
                description = "The vendor's published public key (KEY.pub from keygen). Without it the bundle's own"
                        + " signer.pub is used, which proves integrity but not who signed.")
        Path pubkey;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            final PrintWriter stdout = spec.commandLine().getOut();
            final PrintWriter err = spec.commandLine().getErr();
            return guarded(err, () -> {
                final Optional<PublicKey> trusted = Optional.ofNullable(pubkey).map(SigningKeys::readPublic);
                final BundleVerifier.Verification result = verifier().verify(bundle, trusted);
                for (final Problem problem : result.problems()) {
                    stdout.println(Terminal.safe(problem.toString())); // reasons and titles come from the device
                }
                for (final String note : result.notes()) {
                    err.println("note: " + Terminal.safe(note));
                }
                // "acceptable" alone only when every MUST clause's test purposes were exercised.
                err.println("bundle " + bundle + ": " + result.summary());
                stdout.flush();
                err.flush();
                return result.acceptable() ? 0 : EXIT_NOT_ACCEPTABLE;
            });
        }
    }
}
