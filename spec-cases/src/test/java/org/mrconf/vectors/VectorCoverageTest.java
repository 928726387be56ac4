package org.mrconf.vectors;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.Clause;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.catalogue.Level;

/**
 * Which MUST clauses of the catalogue have a test vector, checked against the corpus so the list in
 * {@code test-vectors/README.md} cannot drift: every MUST clause without a vector must be in {@link #GAPS} with the
 * reason, an entry of {@link #GAPS} that gained a vector fails (the list only shrinks), and the README's generated
 * section must be what this test writes (regenerate with {@code -Dgolden.update=true} and review the diff).
 *
 * <p>A clause is <em>wire-observable</em> unless it is {@link #NOT_ON_THE_WIRE}: what it requires shows in the packets
 * a device sends or accepts. The other reasons name what the vector format (the tester sends a capture, then the
 * expectations are checked) cannot yet express; the Java cases cover those clauses.
 */
class VectorCoverageTest {
    static final String NOT_ON_THE_WIRE = "not on the wire";
    static final String DUT_SENDS = "DUT as sender";
    static final String TIMERS = "timing";
    static final String LINK = "link level";
    static final String NO_PREDICATE = "no predicate";

    /** What each reason means, for the README. */
    static final Map<String, String> LEGEND = Map.of(
            NOT_ON_THE_WIRE, "declarations or the control protocol only: not wire-observable",
            DUT_SENDS,
                    "steps make the DUT post work, compare what it sends, hold ACKs back, NACK a message and leave"
                            + " a SACK gap at a path's first PSN, but have no predicate yet on what the DUT"
                            + " retransmits, on which path, or when",
            TIMERS, "replay judges what holds once the DUT is quiet, never how soon it answered",
            LINK,
                    "replay keeps the capture's source ports, ECN and source address only when asked (asCaptured), and"
                            + " always uses the link's framing, IP family and checksums",
            NO_PREDICATE, "the sidecar has no expectation for it yet");

    /** MUST clauses without a vector, and why. Only shrinks. */
    static final Map<String, String> GAPS = Map.ofEntries(
            Map.entry("3.1.2", DUT_SENDS + " (per-path window, RTT and timer)"),
            Map.entry("3.1.4", NOT_ON_THE_WIRE + " (the declared maximum; stream 0 is in every vector)"),
            Map.entry("4.1.1", LINK),
            Map.entry("4.1.2", LINK + " (the stimulus is IPv4)"),
            Map.entry("4.1.6", LINK + " (UDP checksums)"),
            Map.entry("4.1.8", DUT_SENDS + " (retransmission over a lossy fabric)"),
            Map.entry("4.2.1", NOT_ON_THE_WIRE + " (out-of-band setup; 11.2.1's vector covers the unknown connection)"),
            Map.entry("6.3.1", DUT_SENDS),
            Map.entry("6.4.1", DUT_SENDS),
            Map.entry("6.6.1", DUT_SENDS + "; " + TIMERS),
            Map.entry("6.6.2", DUT_SENDS + "; " + TIMERS),
            Map.entry("6.6.3", DUT_SENDS + "; " + TIMERS),
            Map.entry("6.6.4", DUT_SENDS + "; " + LINK),
            Map.entry("6.6.5", DUT_SENDS + "; " + TIMERS),
            Map.entry("6.7.1", DUT_SENDS + "; " + TIMERS),
            Map.entry("6.7.2", DUT_SENDS + "; " + TIMERS),
            Map.entry("6.7.3", DUT_SENDS + "; " + TIMERS),
            Map.entry("6.7.4", DUT_SENDS + "; " + TIMERS + " (the connection must first time out)"),
            Map.entry("8.1.1", TIMERS + " (an ACK before placement)"),
            Map.entry("8.1.2", TIMERS + " (an ACK at once)"),
            Map.entry("8.1.3", TIMERS + " (an ACK at once; every vector's ACK_REQUEST is answered eventually)"),
            Map.entry("8.1.4", TIMERS),
            Map.entry("8.2.3", NO_PREDICATE + " (the rate hint)"),
            Map.entry("9.1.6", NO_PREDICATE + " (the order of the DUT's responses)"),
            Map.entry("9.1.9", NO_PREDICATE + " (a NACK's retry interval); " + DUT_SENDS),
            Map.entry("10.1.1", DUT_SENDS + "; " + TIMERS),
            Map.entry("10.1.2", DUT_SENDS + "; " + TIMERS),
            Map.entry("10.1.4", DUT_SENDS + "; " + TIMERS),
            Map.entry("10.2.1", DUT_SENDS),
            Map.entry("11.1.6", NOT_ON_THE_WIRE + " (a post refused by the control protocol)"),
            Map.entry("12.1.1", NOT_ON_THE_WIRE),
            Map.entry("12.1.2", NOT_ON_THE_WIRE),
            Map.entry("12.1.3", NOT_ON_THE_WIRE),
            Map.entry("12.1.4", NOT_ON_THE_WIRE),
            Map.entry("12.1.5", NOT_ON_THE_WIRE),
            Map.entry("12.1.6", NOT_ON_THE_WIRE));

    static final Path README = corpus().resolve("README.md");
    static final String BEGIN = "<!-- BEGIN vector coverage: generated by VectorCoverageTest, do not edit -->";
    static final String END = "<!-- END vector coverage -->";

    private static ClauseCatalogue catalogue;
    private static VectorCorpus vectors;

    @BeforeAll
    static void readTheCorpus() throws Exception {
        catalogue = new CatalogueLoader().loadBundled();
        vectors = VectorCorpus.discover(corpus(), catalogue);
        assertThat(vectors.problems()).isEmpty();
    }

    @Test
    void shouldGiveEveryMustClauseAVectorOrAReason() {
        final SortedMap<String, List<TestVector>> by = byClause();
        assertThat(mustClauses().stream()
                        .filter(c -> !by.containsKey(c.id()) && !GAPS.containsKey(c.id()))
                        .map(Clause::id)
                        .toList())
                .as("MUST clauses with neither a vector nor a reason in GAPS")
                .isEmpty();
        assertThat(GAPS.keySet().stream().filter(by::containsKey).sorted().toList())
                .as("clauses in GAPS that now have a vector: drop them from GAPS")
                .isEmpty();
        assertThat(GAPS.keySet().stream()
                        .filter(id -> catalogue
                                .find(id)
                                .map(c -> c.level() != Level.MUST)
                                .orElse(true))
                        .toList())
                .as("GAPS entries that are no MUST clause of the catalogue")
                .isEmpty();
    }

    @Test
    void shouldRepresentTheInvalidAndInopportuneKindsWell() {
        final Map<String, Long> kinds = vectors.vectors().stream()
                .collect(Collectors.groupingBy(v -> v.sidecar().kind(), Collectors.counting()));
        assertThat(kinds.getOrDefault("invalid", 0L)).isGreaterThanOrEqualTo(15);
        assertThat(kinds.getOrDefault("inopportune", 0L)).isGreaterThanOrEqualTo(4);
    }

    @Test
    void shouldMatchTheListInTheReadme() throws Exception {
        final String readme = Files.readString(README, StandardCharsets.UTF_8);
        final int begin = readme.indexOf(BEGIN);
        final int end = readme.indexOf(END);
        assertThat(begin).as("%s holds %s", README, BEGIN).isNotNegative();
        assertThat(end).as("%s holds %s", README, END).isGreaterThan(begin);
        final String updated = readme.substring(0, begin) + BEGIN + "\n" + listing() + readme.substring(end);
        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(README, updated, StandardCharsets.UTF_8);
        }
        assertThat(readme)
                .as("regenerate %s with -Dgolden.update=true and review the diff", README)
                .isEqualTo(updated);
    }

    /** The README section: the count, then one row per MUST clause. */
    static String listing() {
        final SortedMap<String, List<TestVector>> by = byClause();
        final List<Clause> must = mustClauses();
        final List<Clause> wire = must.stream()
                .filter(c -> !GAPS.getOrDefault(c.id(), "").startsWith(NOT_ON_THE_WIRE))
                .toList();
        final long covered = wire.stream().filter(c -> by.containsKey(c.id())).count();
        final Map<String, Long> kinds = new TreeMap<>(vectors.vectors().stream()
                .collect(Collectors.groupingBy(v -> v.sidecar().kind(), Collectors.counting())));
        final StringBuilder md = new StringBuilder();
        md.append("\n")
                .append(vectors.vectors().size())
                .append(" vectors (")
                .append(kinds.entrySet().stream()
                        .map(e -> e.getValue() + " " + e.getKey())
                        .collect(Collectors.joining(", ")))
                .append("). **")
                .append(covered)
                .append(" of ")
                .append(wire.size())
                .append("** wire-observable MUST clauses of Open Draft ")
                .append(catalogue.specVersion())
                .append(" have a vector; ")
                .append(must.size() - wire.size())
                .append(" MUST clauses are not on the wire. A clause without a vector says what the format lacks;")
                .append(" the Java cases cover it.\n\n");
        md.append("| Clause | Level | Vectors | Kinds, or why none yet |\n| --- | --- | ---: | --- |\n");
        for (final Clause clause : must) {
            final List<TestVector> list = by.get(clause.id());
            md.append("| ")
                    .append(clause.id())
                    .append(' ')
                    .append(clause.title())
                    .append(" | MUST | ");
            if (list == null) {
                md.append("0 | none yet: ")
                        .append(emphasised(GAPS.get(clause.id())))
                        .append(" |\n");
            } else {
                md.append(list.size())
                        .append(" | ")
                        .append(String.join(
                                ", ",
                                new TreeSet<>(list.stream()
                                        .map(v -> v.sidecar().kind())
                                        .toList())))
                        .append(" |\n");
            }
        }
        md.append('\n');
        new TreeMap<>(LEGEND)
                .forEach((reason, meaning) -> md.append("- *")
                        .append(reason)
                        .append("*: ")
                        .append(meaning)
                        .append('\n'));
        return md.append('\n').toString();
    }

    /** The reason with each legend label in it in italics. */
    private static String emphasised(final String reason) {
        String out = reason;
        for (final String label : LEGEND.keySet()) {
            out = out.replace(label, "*" + label + "*");
        }
        return out;
    }

    private static SortedMap<String, List<TestVector>> byClause() {
        final SortedMap<String, List<TestVector>> by = new TreeMap<>(Clause::compareIds);
        for (final TestVector vector : vectors.vectors()) {
            for (final String clause : vector.sidecar().clauses()) {
                by.computeIfAbsent(clause, k -> new ArrayList<>()).add(vector);
            }
        }
        return by;
    }

    private static List<Clause> mustClauses() {
        return catalogue.clauses().stream().filter(c -> c.level() == Level.MUST).toList();
    }

    /** The corpus, found by walking up from the module folder. */
    static Path corpus() {
        for (Path folder = Path.of("").toAbsolutePath(); folder != null; folder = folder.getParent()) {
            if (Files.isDirectory(folder.resolve("test-vectors").resolve("schema"))) {
                return folder.resolve("test-vectors");
            }
        }
        throw new IllegalStateException("no test-vectors/ folder here or above");
    }
}
