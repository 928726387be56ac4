import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Prints a JaCoCo CSV report's line and branch coverage as short lines for the build log, so that the coverage of
 * every module shows in CI output without opening the HTML report. conformance-cli runs it in {@code verify}
 * after {@code jacoco:report-aggregate}, as a single-file program ({@code java CoverageSummary.java ...}), so it
 * needs no build of its own.
 *
 * <p>Usage: {@code CoverageSummary <label> <jacoco.csv> [--by-module]}. With {@code --by-module} (the aggregate
 * report) it prints one line per module (the CSV's GROUP column) and a total. A missing CSV (a module without tests,
 * or {@code -Djacoco.skip}) prints nothing: the summary never fails a build.
 */
public final class CoverageSummary {
    /** Missed and covered counts of lines and branches. */
    private static final class Counts {
        long linesMissed;
        long linesCovered;
        long branchesMissed;
        long branchesCovered;
        int classes;

        void add(final String[] row) {
            branchesMissed += Long.parseLong(row[5]);
            branchesCovered += Long.parseLong(row[6]);
            linesMissed += Long.parseLong(row[7]);
            linesCovered += Long.parseLong(row[8]);
            classes++;
        }

        void add(final Counts other) {
            linesMissed += other.linesMissed;
            linesCovered += other.linesCovered;
            branchesMissed += other.branchesMissed;
            branchesCovered += other.branchesCovered;
            classes += other.classes;
        }
    }

    private CoverageSummary() {}

    public static void main(final String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: CoverageSummary <label> <jacoco.csv> [--by-module]");
            return;
        }
        final Path csv = Path.of(args[1]);
        if (!Files.isRegularFile(csv)) {
            return;
        }
        final boolean byModule = args.length > 2 && args[2].equals("--by-module");
        final List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        final Map<String, Counts> groups = new TreeMap<>();
        final Counts total = new Counts();
        for (final String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
            final String[] row = line.split(",", -1);
            if (row.length < 9) {
                continue;
            }
            groups.computeIfAbsent(row[0], g -> new Counts()).add(row);
        }
        groups.values().forEach(total::add);
        System.out.printf(Locale.ROOT, "[coverage] %-28s %-28s %-28s %s%n", args[0], "lines", "branches", "classes");
        if (byModule) {
            for (final Map.Entry<String, Counts> group : groups.entrySet()) {
                // The aggregate's groups are "<aggregating project name>/<module>": the module is what a reader wants.
                final String module = group.getKey().substring(group.getKey().lastIndexOf('/') + 1);
                print("  " + module, group.getValue());
            }
        }
        print(byModule ? "  total" : "  " + args[0], total);
        System.out.println("[coverage] report: " + csv.resolveSibling("index.html"));
    }

    private static void print(final String label, final Counts counts) {
        System.out.printf(
                Locale.ROOT,
                "[coverage] %-28s %-28s %-28s %d%n",
                label,
                ratio(counts.linesCovered, counts.linesMissed),
                ratio(counts.branchesCovered, counts.branchesMissed),
                counts.classes);
    }

    private static String ratio(final long covered, final long missed) {
        final long all = covered + missed;
        final String percent = all == 0 ? "  -  " : String.format(Locale.ROOT, "%5.1f%%", 100.0 * covered / all);
        return String.format(Locale.ROOT, "%s (%d of %d)", percent, covered, all);
    }
}
