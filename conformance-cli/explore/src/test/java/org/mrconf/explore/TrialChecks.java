package org.mrconf.explore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.devices.OpenDevice;

/** The judgement the explore tests share: a program that passes on the clean reference fails under a defect. */
final class TrialChecks {
    private TrialChecks() {}

    /**
     * Runs {@code program} once against the clean reference (no finding, nothing inconclusive) and once against the
     * reference committing {@code defect}, whose findings must name {@code clause}; each trial's files go below
     * {@code scratch}.
     */
    static void cleanPassesAndDefectFails(
            final Program program, final String defect, final String clause, final Path scratch) throws Exception {
        final ClauseCatalogue catalogue = new CatalogueLoader().loadBundled();
        try (OpenDevice clean = OpenDevice.open("reference")) {
            final Trial.Outcome outcome = new Trial(clean.device(), catalogue, scratch.resolve("clean")).run(program);
            assertThat(outcome.findings())
                    .as("the clean reference, " + program.summary())
                    .isEmpty();
            assertThat(outcome.inconclusive()).isEmpty();
        }
        try (OpenDevice broken = OpenDevice.open("reference?defect=" + defect)) {
            final Trial.Outcome outcome = new Trial(broken.device(), catalogue, scratch.resolve("broken")).run(program);
            assertThat(outcome.clauses())
                    .as("%s: %s", defect, outcome.findings())
                    .contains(clause);
        }
    }
}
