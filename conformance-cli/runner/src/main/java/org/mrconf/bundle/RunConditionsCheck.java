package org.mrconf.bundle;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.files.UserFileException;
import org.mrconf.files.UserFiles;
import org.mrconf.verdict.RunRecord;

/**
 * The run is one a reviewer can accept: against the device, not one with planted defects; finished, not interrupted; made
 * with the suite and spec versions the bundle claims, which are the verifier's own (its catalogue and cases are what
 * the coverage check compares with); and the bundle's product and suite documents say what the report says.
 */
final class RunConditionsCheck {
    private RunConditionsCheck() {}

    static List<Problem> check(
            final Path root,
            final RunRecord record,
            final ClauseCatalogue catalogue,
            final SuiteIdentity verifier,
            final List<String> notes) {
        final List<Problem> problems = new ArrayList<>();
        if (!record.dut().defects().isEmpty()) {
            problems.add(new Problem(
                    "defect",
                    "the run was against planted defect(s) "
                            + String.join(", ", record.dut().defects())
                            + ": a self-validation run, not the device as shipped"));
        }
        if (record.interrupted()) {
            problems.add(new Problem("interrupted", "the run was interrupted: its verdicts are incomplete"));
        } else if (record.finishedAt().isEmpty()) {
            problems.add(new Problem(
                    "interrupted",
                    "the run never finished (report.json has no finishedAt): it was"
                            + " cut short or is still running"));
        }
        if (!record.specVersion().equals(catalogue.specVersion())) {
            problems.add(new Problem(
                    "version",
                    "the run tested MetaRoCE Open Draft " + record.specVersion()
                            + " but this verifier checks against " + catalogue.specVersion()
                            + "; verify with the suite release the run used"));
        }
        if (SuiteIdentity.UNKNOWN.equals(record.suiteVersion())) {
            problems.add(new Problem("version", "the run does not record which suite version it used"));
        } else if (!record.suiteVersion().equals(verifier.version())) {
            problems.add(new Problem(
                    "version",
                    "the run used suite " + record.suiteVersion() + " but this verifier is " + verifier.version()
                            + "; verify with the suite release the run used"));
        } else if (verifier.knowsCommit() && !record.suiteCommit().equals(verifier.commit())) {
            problems.add(new Problem(
                    "version",
                    "the run used suite commit " + record.suiteCommit() + " but this verifier was built from "
                            + verifier.commit()));
        } else if (!verifier.knowsCommit()) {
            notes.add("this verifier does not know its own commit, so the run's commit " + record.suiteCommit()
                    + " was not compared");
        }
        checkDocument(
                root,
                BundleLayout.SUITE,
                problems,
                Map.of(
                        "suiteVersion", record.suiteVersion(),
                        "suiteCommit", record.suiteCommit(),
                        "specVersion", record.specVersion(),
                        "commandLine", record.commandLine()));
        checkDocument(
                root,
                BundleLayout.PRODUCT,
                problems,
                Map.of(
                        "vendor", record.dut().vendor(),
                        "model", record.dut().model(),
                        "firmware", record.dut().firmware(),
                        "driver", record.dut().driver(),
                        "claimedProfiles", String.join(",", record.dut().profiles()),
                        "defects", String.join(",", record.dut().defects())));
        return problems;
    }

    /** The bundle's vector manifest lists exactly the vectors that report.json says the run used. */
    static List<Problem> checkVectors(final Path root, final JsonNode report, final RunRecord record) {
        final Path file = root.resolve(BundleLayout.VECTORS);
        if (!Files.isRegularFile(file)) {
            return List.of(); // the integrity check names a missing document
        }
        try {
            final JsonNode listed = BundleDocuments.MAPPER
                    .readTree(UserFiles.readUtf8Inside(root, file, UserFiles.Kind.REPORT))
                    .path("vectors");
            final JsonNode used = BundleDocuments.vectors(record).path("vectors");
            if (!listed.equals(used)) {
                return List.of(new Problem(
                        "version",
                        BundleLayout.VECTORS + " does not list the vectors report.json" + " says the run used ("
                                + used.size() + " there, " + listed.size() + " here)"));
            }
            return List.of();
        } catch (UserFileException e) {
            return List.of(new Problem("bundle", e.getMessage()));
        } catch (IOException e) {
            return List.of(new Problem("bundle", BundleLayout.VECTORS + " is not JSON"));
        }
    }

    /** Each field of a bundle document must say what the report says. */
    private static void checkDocument(
            final Path root, final String name, final List<Problem> problems, final Map<String, String> fromReport) {
        final Path file = root.resolve(name);
        if (!Files.isRegularFile(file)) {
            return; // the integrity check names a missing document
        }
        final JsonNode document;
        try {
            document = BundleDocuments.MAPPER.readTree(UserFiles.readUtf8Inside(root, file, UserFiles.Kind.REPORT));
        } catch (UserFileException e) {
            problems.add(new Problem("bundle", e.getMessage()));
            return;
        } catch (IOException e) {
            problems.add(new Problem(
                    "bundle",
                    name + " is not JSON: " + e.getMessage().lines().findFirst().orElse("")));
            return;
        }
        final String check = name.equals(BundleLayout.PRODUCT) ? "product" : "version";
        fromReport.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(field -> {
            final JsonNode value = document.path(field.getKey());
            final String claimed = value.isArray() ? join(value) : value.asText(null);
            if (!field.getValue().equals(claimed)) {
                problems.add(new Problem(
                        check,
                        name + " says " + field.getKey() + " is '" + claimed + "' but report.json says '"
                                + field.getValue() + "'"));
            }
        });
    }

    private static String join(final JsonNode array) {
        final List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asText()));
        return String.join(",", values);
    }
}
