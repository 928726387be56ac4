package org.mrconf.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/** What {@code bench udp} measured, with its targets judged against the blaster and the lossless rows. */
public record UdpReport(String command, UdpBenchmark.Settings settings, List<UdpBenchmark.Row> rows, String machine) {
    /** Least share of the blaster's rate a lossless run must reach. */
    static final double OF_BLASTER = 0.50;
    /** Least share of the lossless rate a lossy run must keep. */
    static final double OF_LOSSLESS = 0.90;

    /** One target line. */
    public record Target(String name, String required, String measured, boolean met) {}

    /** Per row, the round with the median goodput, in the order the rows first ran. */
    List<UdpBenchmark.Row> medians() {
        final Map<String, List<UdpBenchmark.Row>> byKey = new LinkedHashMap<>();
        for (final UdpBenchmark.Row row : rows) {
            byKey.computeIfAbsent(row.key(), k -> new ArrayList<>()).add(row);
        }
        final List<UdpBenchmark.Row> medians = new ArrayList<>();
        for (final List<UdpBenchmark.Row> rounds : byKey.values()) {
            final List<UdpBenchmark.Row> sorted = new ArrayList<>(rounds);
            sorted.sort(Comparator.comparingDouble(UdpBenchmark.Row::goodputGbps));
            medians.add(sorted.get((sorted.size() - 1) / 2));
        }
        return medians;
    }

    /** Goodput of {@code row} over the blaster's with as many paths (sockets) in the same round. */
    double ofBlasterInRound(final UdpBenchmark.Row row) {
        return find(r -> r.isBlaster() && r.paths() == row.paths() && r.round() == row.round())
                .map(b -> row.goodputGbps() / b.goodputGbps())
                .orElse(Double.NaN);
    }

    /** Goodput of {@code row} over the lossless run of its paths and WRITE size in the same round. */
    double ofLosslessInRound(final UdpBenchmark.Row row) {
        return find(r -> !r.isBlaster()
                        && r.paths() == row.paths()
                        && r.writeBytes() == row.writeBytes()
                        && r.loss() == 0
                        && r.round() == row.round())
                .map(l -> row.goodputGbps() / l.goodputGbps())
                .orElse(Double.NaN);
    }

    /** The median over the rounds of {@link #ofBlasterInRound} for the row's configuration. */
    double ofBlaster(final UdpBenchmark.Row row) {
        return median(row, this::ofBlasterInRound);
    }

    /** The median over the rounds of {@link #ofLosslessInRound} for the row's configuration. */
    double ofLossless(final UdpBenchmark.Row row) {
        return median(row, this::ofLosslessInRound);
    }

    /** Every round of the row's configuration moved all its WRITEs intact. */
    boolean correct(final UdpBenchmark.Row row) {
        return rows.stream()
                .filter(r -> r.key().equals(row.key()))
                .allMatch(r -> r.succeeded() == r.messages() && r.dataIntact());
    }

    private double median(final UdpBenchmark.Row row, final ToDoubleFunction<UdpBenchmark.Row> ratio) {
        final double[] ratios = rows.stream()
                .filter(r -> r.key().equals(row.key()))
                .mapToDouble(ratio)
                .sorted()
                .toArray();
        return ratios.length == 0 ? Double.NaN : ratios[(ratios.length - 1) / 2];
    }

    private Optional<UdpBenchmark.Row> find(final Predicate<UdpBenchmark.Row> what) {
        return rows.stream().filter(what).findFirst();
    }

    public List<Target> targets() {
        final List<Target> targets = new ArrayList<>();
        for (final UdpBenchmark.Row row : medians()) {
            if (row.isBlaster()) {
                continue;
            }
            final String what = String.format(
                    Locale.ROOT,
                    "%d path%s, WRITEs of %s",
                    row.paths(),
                    row.paths() == 1 ? "" : "s",
                    size(row.writeBytes()));
            if (row.loss() == 0) {
                final double share = ofBlaster(row);
                targets.add(new Target(
                        what + ", lossless",
                        percent(OF_BLASTER) + " of the blaster",
                        percent(share),
                        share >= OF_BLASTER && correct(row)));
            } else {
                final double share = ofLossless(row);
                targets.add(new Target(
                        what + ", " + percent(row.loss()) + " loss",
                        percent(OF_LOSSLESS) + " of lossless",
                        percent(share),
                        share >= OF_LOSSLESS && correct(row)));
            }
        }
        return targets;
    }

    static String size(final int bytes) {
        return bytes >= 1 << 20 ? bytes / (1 << 20) + " MiB" : bytes / 1024 + " KiB";
    }

    static String percent(final double share) {
        return String.format(Locale.ROOT, "%.1f%%", share * 100);
    }
}
