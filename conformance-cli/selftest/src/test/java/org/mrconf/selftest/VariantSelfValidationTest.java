package org.mrconf.selftest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.transport.EndpointConfig;
import org.mrconf.variant.Variant;

/**
 * The legal variants of the reference pass: every variant, judged by what its {@code hello} declares, on the cases of
 * the clause that leaves its choice open, gets no FAIL, no ERROR and no INCONCLUSIVE on a MUST clause. This is the
 * small sample CI runs; {@code metaroce selftest --variants} runs each on every clause it bears on (a benchmark-sized
 * run, reports/benchmarks/variants.md).
 */
class VariantSelfValidationTest {
    private static final Path SPEC = Path.of(System.getProperty("mrconf.root", "../.."), "spec/metaroce-open-draft.md");

    /**
     * Cases still undecided (INCONCLUSIVE on a MUST clause, never FAIL) against a variant, and why: each is a known
     * hole of a case, listed so that a new one fails the build. This list only shrinks (issue 33).
     */
    static final Map<Variant, Map<String, String>> KNOWN_UNDECIDED = Map.of();

    @Test
    @Timeout(900)
    void everyVariantPassesTheCasesOfTheClauseThatLeavesItsChoiceOpen() throws Exception {
        final List<String> problems = new ArrayList<>();
        final List<VariantSelfTest.VariantOutcome> outcomes = new VariantSelfTest(VariantSelfTest.Scope.OWN_CLAUSE, 2)
                .run(
                        Arrays.asList(Variant.values()),
                        outcome -> System.out.printf(
                                "[variant %s] %s: %s%n",
                                outcome.variant().label(), outcome.passed() ? "passes" : "BLOCKED", outcome.tally()));
        for (final VariantSelfTest.VariantOutcome outcome : outcomes) {
            assertThat(outcome.results())
                    .as("cases run against variant %s", outcome.variant().label())
                    .isNotEmpty();
            final Map<String, String> known = KNOWN_UNDECIDED.getOrDefault(outcome.variant(), Map.of());
            outcome.blocking().stream()
                    .filter(r ->
                            !(r.verdict() == org.mrconf.verdict.Verdict.INCONCLUSIVE && known.containsKey(r.caseId())))
                    .forEach(r -> problems.add(
                            outcome.variant().label() + ": " + r.caseId() + " " + r.verdict() + " " + r.message()));
        }
        assertThat(problems)
                .as("verdicts that keep a legal variant of the reference from exit 0")
                .isEmpty();
    }

    @Test
    void everyVariantChangesTheReference() {
        final EndpointConfig standard =
                org.mrconf.softdut.SoftDutOptions.builder().build().endpoint();
        for (final Variant variant : Variant.values()) {
            assertThat(variant.configure(standard))
                    .as("variant %s configures something other than the standard reference", variant)
                    .isNotEqualTo(standard);
        }
    }

    @Test
    void everyVariantNamesAFreedomOfTable12Dash3AndClausesOfTheCatalogue() throws Exception {
        final Map<String, String> freedoms = freedoms();
        assertThat(freedoms).as("rows of Table 12-3").hasSizeGreaterThanOrEqualTo(30);
        final ClauseCatalogue catalogue = new CatalogueLoader().loadBundled();
        for (final Variant variant : Variant.values()) {
            assertThat(freedoms).as("the freedom variant %s names", variant).containsKey(variant.freedom());
            final List<String> named = new ArrayList<>(variant.bearsOn());
            named.add(variant.clause());
            for (final String bearsOn : named) {
                assertThat(catalogue.clauses().stream()
                                .anyMatch(c -> c.id().equals(bearsOn) || c.id().startsWith(bearsOn + ".")))
                        .as("variant %s bears on %s, which names clauses of the catalogue", variant, bearsOn)
                        .isTrue();
            }
        }
    }

    /**
     * Freedoms of Table 12-3 that no variant takes, each with why: a new freedom needs a variant or a line here, so the
     * gap stays visible. This list only shrinks (issue 33).
     */
    static final Map<String, String> FREEDOMS_WITHOUT_A_VARIANT = Map.of(
            "F-2", "the embedded reference has no UDP header; over UDP the host stack computes the checksum",
            "F-5", "the reference has one address per device",
            "F-6", "not yet: the reference's peer directory keeps one peer port per address and answers conflict");

    @Test
    void everyFreedomOfTable12Dash3HasAVariantOrAReason() throws Exception {
        final java.util.Set<String> taken = new java.util.TreeSet<>();
        for (final Variant variant : Variant.values()) {
            taken.add(variant.freedom());
        }
        for (final String freedom : freedoms().keySet()) {
            assertThat(taken.contains(freedom) || FREEDOMS_WITHOUT_A_VARIANT.containsKey(freedom))
                    .as(
                            "freedom %s has a legal variant of the reference, or a reason in FREEDOMS_WITHOUT_A_VARIANT",
                            freedom)
                    .isTrue();
            assertThat(taken.contains(freedom) && FREEDOMS_WITHOUT_A_VARIANT.containsKey(freedom))
                    .as("freedom %s has a variant now: take it out of FREEDOMS_WITHOUT_A_VARIANT", freedom)
                    .isFalse();
        }
    }

    @Test
    void variantsAreNamedOnTheCommandLineAsDefectsAre() {
        for (final Variant variant : Variant.values()) {
            assertThat(Variant.fromName(variant.flagName())).isEqualTo(variant);
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Variant.fromName("no-such-variant"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ack-every-packet");
    }

    /** The rows of the draft's Table 12-3: freedom id to its clause column. */
    private static Map<String, String> freedoms() throws Exception {
        final Map<String, String> rows = new TreeMap<>();
        final Pattern row = Pattern.compile("^\\| (F-\\d+) \\| ([^|]+) \\|", Pattern.MULTILINE);
        final Matcher m = row.matcher(Files.readString(SPEC, StandardCharsets.UTF_8));
        while (m.find()) {
            rows.put(m.group(1), m.group(2).trim());
        }
        return rows;
    }
}
