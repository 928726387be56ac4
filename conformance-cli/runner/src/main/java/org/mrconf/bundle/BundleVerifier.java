package org.mrconf.bundle;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.mrconf.catalogue.ClauseCatalogue;

/**
 * Checks a bundle fully offline, as a reviewer runs it: the signature and every hash, the reports against their
 * schemas, the verdicts against each other and junit.xml and ocptv.jsonl against report.json, the coverage of every claimed MUST clause, the run's conditions (no
 * planted defects, not interrupted, the claimed suite and spec versions) and the verdicts themselves. Every check
 * runs even when an earlier one failed, so the reviewer sees all problems at once.
 */
public final class BundleVerifier {
    private final RunFolder.Reader reader;
    private final ReportValidator schemas;
    private final ClauseCatalogue catalogue;
    private final SuiteCases suite;
    private final SuiteIdentity identity;

    /**
     * @param reader    reads report.json into a run record (the report module's reader)
     * @param schemas   validates a run folder's reports against their schemas (the report module's validator)
     * @param catalogue the clause catalogue of the verifier's suite
     * @param suite     the verifier's conformance cases
     * @param identity  the verifier's suite version and commit
     */
    public BundleVerifier(
            final RunFolder.Reader reader,
            final ReportValidator schemas,
            final ClauseCatalogue catalogue,
            final SuiteCases suite,
            final SuiteIdentity identity) {
        this.reader = Objects.requireNonNull(reader, "reader");
        this.schemas = Objects.requireNonNull(schemas, "schemas");
        this.catalogue = Objects.requireNonNull(catalogue, "catalogue");
        this.suite = Objects.requireNonNull(suite, "suite");
        this.identity = Objects.requireNonNull(identity, "identity");
    }

    /** Validates the reports of a run folder against their schemas, one message per problem naming the file. */
    @FunctionalInterface
    public interface ReportValidator {
        List<String> validate(Path runDir) throws IOException;
    }

    /**
     * Verifies a bundle directory or {@code .tar.gz}.
     *
     * @param trusted the signer's public key as the reviewer knows it; empty to use the bundle's own
     * @throws BundleInputException when {@code bundle} is neither a directory nor a file; an archive that cannot be
     *     unpacked safely is an {@code archive} problem
     */
    public Verification verify(final Path bundle, final Optional<PublicKey> trusted) throws IOException {
        if (Files.isDirectory(bundle)) {
            return verifyDirectory(bundle, trusted);
        }
        if (!Files.isRegularFile(bundle)) {
            throw new BundleInputException(bundle + ": no such bundle (expected a bundle directory or .tar.gz)");
        }
        final Path scratch = Files.createTempDirectory("metaroce-verify-");
        try {
            final Path root;
            try {
                root = BundleArchive.unpack(bundle, scratch);
            } catch (BundleInputException e) {
                // A corrupt or hostile archive is a rejected submission, not a usage error.
                return new Verification(List.of(new Problem("archive", e.getMessage())), List.of());
            }
            return verifyDirectory(root, trusted);
        } finally {
            BundleCreator.deleteTree(scratch);
        }
    }

    private Verification verifyDirectory(final Path root, final Optional<PublicKey> trusted) throws IOException {
        final List<Problem> problems = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        problems.addAll(IntegrityCheck.check(root, trusted, notes));
        final Path runDir = root.resolve(BundleLayout.RUN);
        if (!Files.isRegularFile(runDir.resolve("report.json"))) {
            return new Verification(problems, notes); // the integrity check named it
        }
        for (final String message : schemas.validate(runDir)) {
            problems.add(new Problem("schema", message));
        }
        final RunFolder run;
        try {
            run = RunFolder.read(runDir, reader);
        } catch (BundleInputException e) {
            final String where =
                    e.getMessage().replace(root + root.getFileSystem().getSeparator(), "");
            problems.add(new Problem("report", where + "; the verdicts cannot be checked"));
            return new Verification(problems, notes);
        }
        problems.addAll(VerdictConsistencyCheck.check(run.record(), run.report(), catalogue));
        problems.addAll(SiblingReportsCheck.check(root, run.record()));
        problems.addAll(CoverageCheck.check(run.record(), catalogue, suite, notes));
        problems.addAll(RunConditionsCheck.check(root, run.record(), catalogue, identity, notes));
        problems.addAll(RunConditionsCheck.checkVectors(root, run.report(), run.record()));
        problems.addAll(OutcomeCheck.check(run.record()));
        final List<String> notFullyExercised = new ArrayList<>();
        for (final org.mrconf.verdict.ClauseResult clause : run.record().clauses()) {
            if ("MUST".equals(clause.level()) && clause.notFullyExercised()) {
                notFullyExercised.add(clause.clauseId());
                if (clause.partial()) {
                    // A clause NOT_APPLICABLE (not exercised) has the coverage check's note already.
                    notes.add(clause.clauseId() + " (MUST, profile " + clause.profile() + ") is " + clause.label()
                            + ": not exercised in this run: " + clause.notExercisedSummary());
                }
            }
        }
        return new Verification(problems, notes, notFullyExercised);
    }

    /**
     * The result of a verification.
     *
     * @param problems          every reason the bundle is not acceptable; empty means acceptable
     * @param notes             remarks that are not problems (which key checked the signature, clauses without a
     *     case, clauses partly exercised)
     * @param notFullyExercised the MUST clauses of the run that apply to the device but whose test purposes were not
     *     all exercised: PASS (partial), WARN (partial) or NOT_APPLICABLE (not exercised), in clause order. Not a
     *     problem, but an acceptable bundle says so.
     */
    public record Verification(List<Problem> problems, List<String> notes, List<String> notFullyExercised) {
        public Verification {
            problems = List.copyOf(problems);
            notes = List.copyOf(notes);
            notFullyExercised = List.copyOf(notFullyExercised);
        }

        /** A verification that found no clause partly exercised (or could not read the verdicts). */
        public Verification(final List<Problem> problems, final List<String> notes) {
            this(problems, notes, List.of());
        }

        public boolean acceptable() {
            return problems.isEmpty();
        }

        /**
         * The verdict on one line: {@code acceptable}, {@code acceptable, with N MUST clause(s) not fully exercised:
         * 4.1.7, 4.1.6 (...)}, or {@code not acceptable, N problem(s)}.
         */
        public String summary() {
            if (!acceptable()) {
                return "not acceptable, " + problems.size() + " problem(s)";
            }
            return notFullyExercised.isEmpty()
                    ? "acceptable"
                    : "acceptable, with " + notFullyExercised.size() + " MUST clause(s) not fully exercised: "
                            + String.join(", ", notFullyExercised)
                            + " (see the notes; a run over a link or configuration that carries their cases"
                            + " exercises them)";
        }
    }
}
