package org.mrconf.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;

/**
 * Every "done when" of the bundle: a clean run's bundle verifies, and each kind of tampering or unacceptable run
 * makes verify name it: a changed byte in any file, a removed case, a selection that skipped a claimed MUST clause,
 * a planted defect, an interrupted run, the wrong key.
 */
class BundleVerifierTest {
    private static final KeyPair VENDOR = SigningKeys.generate();
    private static final KeyPair STRANGER = SigningKeys.generate();

    private static final BundleVerifier VERIFIER = new BundleVerifier(
            ReportModule.reader(), ReportModule.validator(), BundleRuns.CATALOGUE, BundleRuns.CASES, BundleRuns.SUITE);

    private static Path cleanBundle;

    @TempDir
    Path dir;

    @BeforeAll
    static void makeCleanBundle(@TempDir final Path shared) throws IOException {
        cleanBundle = create(BundleRuns.write(shared.resolve("run"), BundleRuns.clean()), shared, "clean", VENDOR);
    }

    @Test
    void shouldAcceptTheBundleOfACleanRunAsDirectoryAndArchive() throws IOException {
        final BundleVerifier.Verification asArchive = verify(cleanBundle, VENDOR);
        assertThat(asArchive.problems()).isEmpty();
        assertThat(asArchive.acceptable()).isTrue();
        assertThat(verify(BundleCreator.directoryOf(cleanBundle), VENDOR).problems())
                .isEmpty();
    }

    @Test
    void shouldUseTheBundlesOwnKeyWithANoteWhenNoKeyIsGiven() throws IOException {
        final BundleVerifier.Verification result = verifier().verify(cleanBundle, Optional.empty());
        assertThat(result.problems()).isEmpty();
        assertThat(result.notes()).anyMatch(n -> n.contains("proves integrity, not who signed"));
    }

    @Test
    void shouldCarryEveryFileTheIssueAsksFor() throws IOException {
        final Path bundle = BundleCreator.directoryOf(cleanBundle);
        for (final String file : BundleLayout.REQUIRED) {
            assertThat(bundle.resolve(file)).as(file).isRegularFile();
        }
        assertThat(bundle.resolve(BundleLayout.SIGNATURE)).hasSize(64);
        final String product = Files.readString(bundle.resolve(BundleLayout.PRODUCT));
        assertThat(product).contains("\"vendor\" : \"MetaRoCE Open Conformance\"", "\"claimedProfiles\"", "multipath");
        final String suite = Files.readString(bundle.resolve(BundleLayout.SUITE));
        assertThat(suite).contains(BundleRuns.SUITE.version(), BundleRuns.SUITE.commit(), "metaroce run --out");
        final String environment = Files.readString(bundle.resolve(BundleLayout.ENVIRONMENT));
        assertThat(environment).contains(System.getProperty("java.version"), System.getProperty("os.name"), "embedded");
        assertThat(Files.readString(bundle.resolve(BundleLayout.VECTORS)))
                .contains("\"vectors\" : [ ]", "The run replayed no test vectors.");
        assertThat(Files.readString(bundle.resolve(BundleLayout.README)))
                .contains("Reproduce the run", "git checkout " + BundleRuns.SUITE.commit(), "metaroce run --out");
    }

    static Stream<String> everyFileOfTheBundle() throws IOException {
        final Path root = BundleCreator.directoryOf(cleanBundle);
        return BundleManifest.files(root).stream().map(f -> BundleManifest.relativePath(root, f));
    }

    @ParameterizedTest
    @MethodSource("everyFileOfTheBundle")
    void shouldNameAChangedByteInAnyFile(final String file) throws IOException {
        final Path copy = copyOf(BundleCreator.directoryOf(cleanBundle));
        final Path target = copy.resolve(file);
        final byte[] bytes = Files.readAllBytes(target);
        bytes[bytes.length / 2] ^= 0x01;
        Files.write(target, bytes);

        final List<String> problems = lines(verify(copy, VENDOR));

        if (BundleLayout.UNLISTED.contains(file)) {
            assertThat(problems)
                    .anyMatch(p -> p.startsWith("signature: " + BundleLayout.SIGNATURE + " does not verify"));
        } else {
            assertThat(problems).anyMatch(p -> p.startsWith("hash: " + file + " was changed"));
        }
    }

    @Test
    void shouldRejectAnArchiveWithAChangedByte() throws IOException {
        final byte[] bytes = Files.readAllBytes(cleanBundle);
        bytes[bytes.length / 2] ^= 0x01;
        final Path damaged = Files.write(dir.resolve("damaged.tar.gz"), bytes);

        assertThat(lines(verify(damaged, VENDOR))).singleElement().asString().startsWith("archive: " + damaged + ": ");
    }

    @Test
    void shouldNameAFileAddedOrRemovedAfterSigning() throws IOException {
        final Path copy = copyOf(BundleCreator.directoryOf(cleanBundle));
        Files.writeString(copy.resolve("run/evidence-extra.txt"), "slipped in");
        Files.delete(copy.resolve(BundleLayout.ENVIRONMENT));

        assertThat(lines(verify(copy, VENDOR)))
                .contains("hash: run/evidence-extra.txt is not listed in MANIFEST.sha256 (added later?)")
                .contains("hash: environment.json is listed in MANIFEST.sha256 but missing");
    }

    @Test
    void shouldNameACaseRemovedFromTheReportEvenWhenReSigned() throws IOException {
        // Other cases verify the same clauses, so every clause still has a case: only the case itself is missing.
        final String removed = "ProtectionCase.outOfBoundsIsRefused";
        final Path run = BundleRuns.write(dir.resolve("run"), BundleRuns.clean());
        removeCase(run.resolve("report.json"), removed);

        final List<String> problems = lines(verify(create(run, dir, "removed", VENDOR), VENDOR));

        assertThat(problems)
                .anyMatch(p -> p.startsWith("coverage: case " + removed + " is missing from the report: it verifies"
                        + " MUST clause(s) 9.1.1, 9.1.3"))
                .noneMatch(p -> p.startsWith("hash:") || p.startsWith("signature:") || p.startsWith("summary:"));
    }

    @Test
    void shouldNameTheCaseOfEveryClauseThatARemovedCaseTookWithIt() throws IOException {
        final Path run = BundleRuns.write(dir.resolve("run"), BundleRuns.clean());
        final List<String> removed = casesOf(run.resolve("report.json"), "6.2.1"); // every case of 6.2.1
        for (final String caseId : removed) {
            removeCase(run.resolve("report.json"), caseId);
        }

        assertThat(lines(verify(create(run, dir, "removed", VENDOR), VENDOR)))
                .contains("coverage: 6.2.1 (MUST, profile core) was not run although the device claims core; the"
                        + " suite's case(s) for it: "
                        + String.join(", ", removed.stream().sorted().toList()));
    }

    @Test
    void shouldNameACaseRemovedAfterSigningByItsHash() throws IOException {
        final Path copy = copyOf(BundleCreator.directoryOf(cleanBundle));
        final String removed = "ProtectionCase.outOfBoundsIsRefused";
        removeCase(copy.resolve(BundleLayout.REPORT_JSON), removed);

        assertThat(lines(verify(copy, VENDOR)))
                .anyMatch(p -> p.startsWith("hash: run/report.json was changed"))
                .anyMatch(p -> p.startsWith("coverage: case " + removed + " is missing"));
    }

    @Test
    void shouldNameEveryClaimedMustClauseASelectionSkipped() throws IOException {
        final Path run = BundleRuns.write(dir.resolve("run"), BundleRuns.onlySection6());

        final List<String> problems = lines(verify(create(run, dir, "selected", VENDOR), VENDOR));

        assertThat(problems)
                .anyMatch(p -> p.startsWith("coverage: 11.2.1 (MUST, profile core) was not run although the device"
                                + " claims core; the suite's case(s) for it: ")
                        && p.contains("ProtectionCase.unknownConnectionIsDropped")
                        && p.endsWith("(the run selected {clause=6.*})"))
                .noneMatch(p -> p.startsWith("coverage: 6.4.1"))
                .noneMatch(p -> p.startsWith("hash:") || p.startsWith("signature:"));
    }

    @Test
    void shouldRejectARunAgainstADefectProfile() throws IOException {
        final Path run = BundleRuns.write(dir.resolve("run"), BundleRuns.withDefect("ack-wrong-psn"));

        assertThat(lines(verify(create(run, dir, "defect", VENDOR), VENDOR)))
                .anyMatch(p -> p.startsWith("defect: the run was against planted defect(s) ack-wrong-psn"));
    }

    @Test
    void shouldRejectAnInterruptedRun() throws IOException {
        final Path run = BundleRuns.write(dir.resolve("run"), BundleRuns.interrupted());

        assertThat(lines(verify(create(run, dir, "interrupted", VENDOR), VENDOR)))
                .contains("interrupted: the run was interrupted: its verdicts are incomplete")
                .anyMatch(p -> p.startsWith("coverage:"));
    }

    @Test
    void shouldRejectTheWrongKeyNamingBothFingerprints() throws IOException {
        final List<String> problems = lines(verify(cleanBundle, STRANGER));

        assertThat(problems)
                .containsExactly("signature: MANIFEST.sha256.sig does not verify with the given --pubkey ("
                        + SigningKeys.fingerprint(STRANGER.getPublic()) + "); the bundle names another signer, "
                        + SigningKeys.fingerprint(VENDOR.getPublic()));
    }

    @Test
    void shouldRejectAnUnsignedBundle() throws IOException {
        final Path run = BundleRuns.write(dir.resolve("run"), BundleRuns.clean());
        final Path archive = dir.resolve("unsigned.tar.gz");
        new BundleCreator(ReportModule.reader(), BundleCreator.hostFacts()).create(run, Optional.empty(), archive);

        assertThat(lines(verifier().verify(archive, Optional.empty())))
                .containsExactly("signature: the bundle is not signed (MANIFEST.sha256.sig missing; make it with"
                        + " bundle create --key)");
    }

    @Test
    void shouldRejectAFailingMustClause() throws IOException {
        final String failing = BundleRuns.firstMustCase();
        final RunRecord record = BundleRuns.withVerdict(failing, Verdict.FAIL, "expected: 7\nactual: 9");
        final Path run = BundleRuns.write(dir.resolve("run"), record);

        assertThat(lines(verify(create(run, dir, "failing", VENDOR), VENDOR)))
                .anyMatch(p -> p.startsWith("verdict: ")
                        && p.contains("(MUST, profile")
                        && p.endsWith("is FAIL: expected: 7"));
    }

    @Test
    void shouldNameAClauseVerdictThatItsCasesDoNotGiveEvenWhenReSigned() throws IOException {
        final String failing = BundleRuns.clean().cases().get(0).caseId();
        final Path run = BundleRuns.write(
                dir.resolve("run"), BundleRuns.withVerdict(failing, Verdict.FAIL, "expected: 7\nactual: 9"));
        final Path report = run.resolve("report.json");
        final ObjectNode tree = (ObjectNode) BundleDocuments.MAPPER.readTree(report.toFile());
        final String clause;
        final ObjectNode first = (ObjectNode) findClauseOf(tree, failing);
        clause = first.get("id").asText();
        first.put("verdict", "PASS"); // hide the failure in the clause table, leave the case honest
        Files.writeString(report, BundleDocuments.text(tree));

        assertThat(lines(verify(create(run, dir, "hidden", VENDOR), VENDOR)))
                .anyMatch(p -> p.startsWith("clause: " + clause + " is recorded PASS but its cases"))
                .anyMatch(p -> p.startsWith("summary: summary.clauses.PASS says"));
    }

    /** A clean case whose clauses are all MUST clauses each verified by another case too, so they stay PASS. */
    private static org.mrconf.verdict.CaseResult caseOfMustClausesWithOtherCases() {
        final RunRecord clean = BundleRuns.clean();
        return clean.cases().stream()
                .filter(c -> !c.clauses().isEmpty())
                .filter(c -> c.clauses().stream()
                        .allMatch(id ->
                                BundleRuns.CATALOGUE.find(id).orElseThrow().level() == org.mrconf.catalogue.Level.MUST))
                .filter(c -> c.clauses().stream()
                        .allMatch(id -> clean.cases().stream()
                                .anyMatch(o -> o != c && o.clauses().contains(id))))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void shouldSayAcceptableWithTheMustClausesNotFullyExercised() throws IOException {
        final org.mrconf.verdict.CaseResult skipped = caseOfMustClausesWithOtherCases();
        final String reason = org.mrconf.cases.Applicability.LINK_CANNOT + "needs raw Ethernet";
        final Path run = BundleRuns.write(
                dir.resolve("run"), BundleRuns.withVerdict(skipped.caseId(), Verdict.NOT_APPLICABLE, reason));

        final BundleVerifier.Verification result = verify(create(run, dir, "partial", VENDOR), VENDOR);

        assertThat(result.problems()).isEmpty();
        assertThat(result.acceptable()).isTrue();
        assertThat(result.notFullyExercised()).containsExactlyInAnyOrderElementsOf(skipped.clauses());
        assertThat(result.summary())
                .startsWith("acceptable, with " + skipped.clauses().size() + " MUST clause(s) not fully exercised: ")
                .contains(skipped.clauses().get(0));
        assertThat(result.notes())
                .anyMatch(n -> n.startsWith(skipped.clauses().get(0) + " (MUST, profile ")
                        && n.contains("is PASS (partial): not exercised in this run: " + skipped.caseId()
                                + " (NOT_APPLICABLE: " + reason + ")"));
        assertThat(verify(cleanBundle, VENDOR).summary()).isEqualTo("acceptable");
    }

    @Test
    void shouldNotCountACaseOfAnUnclaimedProfileAsNotExercised() throws IOException {
        final org.mrconf.verdict.CaseResult skipped = caseOfMustClausesWithOtherCases();
        final Path run = BundleRuns.write(
                dir.resolve("run"),
                BundleRuns.withVerdict(
                        skipped.caseId(),
                        Verdict.NOT_APPLICABLE,
                        "clause 9.9.9 belongs to profile 'streams', which the device does not claim"));

        final BundleVerifier.Verification result = verify(create(run, dir, "unclaimed", VENDOR), VENDOR);

        assertThat(result.notFullyExercised()).isEmpty();
        assertThat(result.summary()).doesNotContain("not fully exercised");
    }

    @Test
    void shouldNameAPartialClauseHiddenInReportJsonEvenWhenReSigned() throws IOException {
        final org.mrconf.verdict.CaseResult skipped = caseOfMustClausesWithOtherCases();
        final Path run = BundleRuns.write(
                dir.resolve("run"),
                BundleRuns.withVerdict(
                        skipped.caseId(),
                        Verdict.NOT_APPLICABLE,
                        org.mrconf.cases.Applicability.LINK_CANNOT + "needs raw Ethernet"));
        final Path report = run.resolve("report.json");
        final ObjectNode tree = (ObjectNode) BundleDocuments.MAPPER.readTree(report.toFile());
        final String clause = skipped.clauses().get(0);
        for (final com.fasterxml.jackson.databind.JsonNode c : tree.path("clauses")) {
            if (c.path("id").asText().equals(clause)) {
                ((ObjectNode) c).put("partial", false);
                ((ObjectNode) c).putArray("notExercised"); // a plain PASS, as if every purpose had run
            }
        }
        Files.writeString(report, BundleDocuments.text(tree));

        assertThat(lines(verify(create(run, dir, "hidden-partial", VENDOR), VENDOR)))
                .anyMatch(p -> p.startsWith("clause: " + clause + " lists [] as not exercised but its cases"))
                .anyMatch(p -> p.startsWith("siblings: ") && p.contains(clause));
    }

    @Test
    void shouldNameASuiteVersionOtherThanTheVerifiers() throws IOException {
        final BundleVerifier other = new BundleVerifier(
                ReportModule.reader(),
                ReportModule.validator(),
                BundleRuns.CATALOGUE,
                BundleRuns.CASES,
                new SuiteIdentity("0.2.0", "fedcba9876543210fedcba9876543210fedcba98"));

        assertThat(lines(other.verify(cleanBundle, Optional.of(VENDOR.getPublic()))))
                .containsExactly("version: the run used suite 0.1.0-TEST but this verifier is 0.2.0; verify with the"
                        + " suite release the run used");
    }

    @Test
    void shouldNameAReportThatBreaksItsSchemaEvenWhenReSigned() throws IOException {
        final Path copy = copyOf(BundleCreator.directoryOf(cleanBundle));
        final Path report = copy.resolve(BundleLayout.REPORT_JSON);
        final ObjectNode tree = (ObjectNode) BundleDocuments.MAPPER.readTree(report.toFile());
        tree.put("formatVersion", 7);
        Files.writeString(report, BundleDocuments.text(tree));
        resign(copy, VENDOR);

        assertThat(lines(verify(copy, VENDOR)))
                .anyMatch(p -> p.startsWith("schema: run/report.json: "))
                .anyMatch(p -> p.startsWith("report: run/report.json: field /formatVersion"))
                .noneMatch(p -> p.startsWith("hash:") || p.startsWith("signature:"));
    }

    @Test
    void shouldNameAVectorManifestThatDisagreesWithTheReport() throws IOException {
        final Path copy = copyOf(BundleCreator.directoryOf(cleanBundle));
        final Path vectors = copy.resolve(BundleLayout.VECTORS);
        final ObjectNode tree = (ObjectNode) BundleDocuments.MAPPER.readTree(vectors.toFile());
        tree.putArray("vectors").addObject().put("id", "7.1.1/forged").put("sha256", "00");
        Files.writeString(vectors, BundleDocuments.text(tree));
        resign(copy, VENDOR);

        assertThat(lines(verify(copy, VENDOR)))
                .containsExactly("version: vectors/manifest.json does not list the vectors report.json says the run"
                        + " used (0 there, 1 here)");
    }

    @Test
    void shouldMakeTheSameArchiveTwice() throws IOException {
        final Path run = BundleRuns.write(dir.resolve("run"), BundleRuns.clean());
        final Path first = create(run, dir.resolve("a"), "same", VENDOR);
        final Path second = create(run, dir.resolve("b"), "same", VENDOR);

        assertThat(Files.readAllBytes(first)).isEqualTo(Files.readAllBytes(second));
    }

    @Test
    void shouldRefuseToReplaceAnExistingBundle() throws IOException {
        final Path run = BundleRuns.write(dir.resolve("run"), BundleRuns.clean());
        create(run, dir, "twice", VENDOR);

        assertThatThrownBy(() -> create(run, dir, "twice", VENDOR))
                .isInstanceOf(BundleInputException.class)
                .hasMessageContaining("already exists");
    }

    @Test
    void shouldRefuseARunFolderWithoutItsReports() throws IOException {
        final Path run = BundleRuns.write(dir.resolve("run"), BundleRuns.clean());
        Files.delete(run.resolve("junit.xml"));

        assertThatThrownBy(() -> create(run, dir, "incomplete", VENDOR))
                .isInstanceOf(BundleInputException.class)
                .hasMessageContaining("junit.xml: missing");
        assertThat(dir.resolve("incomplete")).doesNotExist();
    }

    // ---------------------------------------------------------------------------------------------------------

    static BundleVerifier verifier() {
        return new BundleVerifier(
                ReportModule.reader(),
                ReportModule.validator(),
                BundleRuns.CATALOGUE,
                SuiteCases.discover(),
                BundleRuns.SUITE);
    }

    static Path create(final Path run, final Path parent, final String name, final KeyPair key) throws IOException {
        final Path archive = parent.resolve(name + ".tar.gz");
        new BundleCreator(ReportModule.reader(), BundleCreator.hostFacts()).create(run, Optional.of(key), archive);
        return archive;
    }

    /** Signs an edited bundle again, as a vendor who edits their own bundle can. */
    static void resign(final Path bundle, final KeyPair key) throws IOException {
        final byte[] manifest = BundleManifest.of(bundle, BundleLayout.UNLISTED).format();
        Files.write(bundle.resolve(BundleLayout.MANIFEST), manifest);
        Files.write(bundle.resolve(BundleLayout.SIGNATURE), SigningKeys.sign(key.getPrivate(), manifest));
    }

    private static BundleVerifier.Verification verify(final Path bundle, final KeyPair key) throws IOException {
        return verifier().verify(bundle, Optional.of(key.getPublic()));
    }

    private static List<String> lines(final BundleVerifier.Verification result) {
        return result.problems().stream().map(Problem::toString).toList();
    }

    private Path copyOf(final Path bundle) throws IOException {
        return copyOf(bundle, dir.resolve("copy"));
    }

    /** Copies a bundle directory's files to {@code copy}. */
    static Path copyOf(final Path bundle, final Path copy) throws IOException {
        for (final Path file : BundleManifest.files(bundle)) {
            final Path target = copy.resolve(BundleManifest.relativePath(bundle, file));
            Files.createDirectories(target.getParent());
            Files.copy(file, target);
        }
        return copy;
    }

    /** Removes a case from report.json the way a careful forger would: from the cases, its clauses and the summary. */
    /** The cases the report lists for a clause. */
    private static List<String> casesOf(final Path report, final String clauseId) throws IOException {
        final ObjectNode tree = (ObjectNode) BundleDocuments.MAPPER.readTree(report.toFile());
        final List<String> ids = new java.util.ArrayList<>();
        for (final var clause : tree.get("clauses")) {
            if (clause.get("id").asText().equals(clauseId)) {
                clause.get("cases").forEach(id -> ids.add(id.asText()));
            }
        }
        return ids;
    }

    private static void removeCase(final Path report, final String caseId) throws IOException {
        final ObjectNode tree = (ObjectNode) BundleDocuments.MAPPER.readTree(report.toFile());
        final ArrayNode cases = (ArrayNode) tree.get("cases");
        for (int i = 0; i < cases.size(); i++) {
            if (cases.get(i).get("id").asText().equals(caseId)) {
                cases.remove(i);
                break;
            }
        }
        final ArrayNode clauses = (ArrayNode) tree.get("clauses");
        for (int i = clauses.size() - 1; i >= 0; i--) {
            final ArrayNode ids = (ArrayNode) clauses.get(i).get("cases");
            for (int j = ids.size() - 1; j >= 0; j--) {
                if (ids.get(j).asText().equals(caseId)) {
                    ids.remove(j);
                }
            }
            if (ids.isEmpty()) {
                clauses.remove(i);
            }
        }
        final ObjectNode summary = (ObjectNode) tree.get("summary");
        for (final String what : List.of("cases", "clauses")) {
            final ObjectNode counts = (ObjectNode) summary.get(what);
            counts.put("total", tree.get(what).size());
            final java.util.Iterator<String> verdicts = counts.fieldNames();
            final List<String> names = new java.util.ArrayList<>();
            verdicts.forEachRemaining(names::add);
            for (final String verdict : names) {
                if (!verdict.equals("total")) {
                    int count = 0;
                    for (final var item : tree.get(what)) {
                        if (item.get("verdict").asText().equals(verdict)) {
                            count++;
                        }
                    }
                    counts.put(verdict, count);
                }
            }
        }
        Files.writeString(report, BundleDocuments.text(tree), StandardCharsets.UTF_8);
    }

    private static com.fasterxml.jackson.databind.JsonNode findClauseOf(final ObjectNode tree, final String caseId) {
        for (final var clause : tree.get("clauses")) {
            for (final var id : clause.get("cases")) {
                if (id.asText().equals(caseId)) {
                    return clause;
                }
            }
        }
        throw new AssertionError("no clause lists " + caseId);
    }
}
