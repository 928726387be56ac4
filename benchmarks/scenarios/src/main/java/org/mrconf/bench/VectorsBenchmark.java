package org.mrconf.bench;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.replay.VectorCorpus;

/** {@code metaroce bench vectors}: how long replaying the whole vector corpus against the embedded reference takes. */
public final class VectorsBenchmark {
    private final Path out;
    private final Path root;

    /**
     * @param out folder for vectors.md
     * @param root the vector root
     */
    public VectorsBenchmark(final Path out, final Path root) {
        this.out = out;
        this.root = root;
    }

    /** Replays, writes vectors.md and prints it on {@code console}; 0 when every vector passed, else 1. */
    public int run(final PrintWriter console) throws Exception {
        final VectorCorpus corpus = VectorCorpus.discover(root, new CatalogueLoader().loadBundled());
        final long start = System.nanoTime();
        int failed = 0;
        final java.util.Map<String, Double> secondsById = new java.util.HashMap<>();
        final java.util.Map<String, double[]> byConfiguration = new java.util.LinkedHashMap<>();
        for (final org.mrconf.embedded.ReferenceConfiguration configuration :
                org.mrconf.embedded.ReferenceConfiguration.values()) {
            byConfiguration.put(configuration.targetName(), new double[2]);
        }
        for (final org.mrconf.authoring.ReferenceReplay.Outcome outcome :
                org.mrconf.authoring.ReferenceReplay.run(corpus)) {
            outcome.configuration().ifPresent(c -> {
                final double[] sums = byConfiguration.get(c.targetName());
                sums[0]++;
                sums[1] += outcome.seconds();
            });
            if (outcome.failure().isPresent()) {
                failed++;
                console.println("FAIL " + outcome.vector().id() + ": "
                        + outcome.failure().get());
            }
            secondsById.put(outcome.vector().id(), outcome.seconds());
        }
        final double seconds = (System.nanoTime() - start) / 1e9;
        final List<String> lines = new ArrayList<>();
        lines.add("# Replaying the vector corpus");
        lines.add("");
        lines.add("Command: `./metaroce bench vectors`");
        lines.add("");
        lines.add("Machine: " + Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("os.name")
                + " " + System.getProperty("os.arch") + ", Java " + System.getProperty("java.version") + ".");
        lines.add("");
        lines.add("| vectors | failed | problems | seconds | target |");
        lines.add("| ---: | ---: | ---: | ---: | --- |");
        lines.add(String.format(
                "| %d | %d | %d | %.1f | under 30 s |",
                corpus.vectors().size(), failed, corpus.problems().size(), seconds));
        lines.add("");
        lines.add(
                "Each vector runs once against the clean embedded reference, in the first configuration that claims its"
                        + " profiles (and none it must not) and whose link carries it (standard, then long-haul,"
                        + " ipv6, frames, core); starting those references is part of the time. The standard"
                        + " configuration replays its vectors on one lane while the others replay theirs, one"
                        + " configuration after another, on a second: separate reference instances, as separate"
                        + " devices would be. A device is tested in one configuration at a time, so the standard"
                        + " configuration's own time is what `./metaroce run --case 'vector:*'` costs against the"
                        + " embedded reference.");
        lines.add("");
        lines.add("| configuration | lane | vectors | seconds of replay |");
        lines.add("| --- | ---: | ---: | ---: |");
        byConfiguration.forEach((name, sums) -> lines.add(String.format(
                "| %s | %d | %d | %.1f |", name, name.equals("standard") ? 1 : 2, (int) sums[0], sums[1])));
        lines.add("");
        lines.add("Each vector ends once everything it expects to see has come and the DUT has then been quiet for its"
                + " quiet window (here 100 ms: the floor, above twice the declared ACK deadline and the initial"
                + " RTO plus tolerance); that wait, not the packets, is most of the time. Before the window was"
                + " derived from the declarations it was a fixed 300 ms, and the corpus of 80 vectors took"
                + " 30.2 s.");
        lines.add("");
        lines.add("The slowest vectors:");
        lines.add("");
        lines.add("| vector | seconds |");
        lines.add("| --- | ---: |");
        secondsById.entrySet().stream()
                .sorted(java.util.Map.Entry.<String, Double>comparingByValue().reversed())
                .limit(8)
                .forEach(e -> lines.add(String.format("| %s | %.2f |", e.getKey(), e.getValue())));
        Files.createDirectories(out);
        Files.write(out.resolve("vectors.md"), lines, StandardCharsets.UTF_8);
        lines.forEach(console::println);
        console.flush();
        return failed == 0 && corpus.problems().isEmpty() ? 0 : 1;
    }
}
