package org.mrconf.cli.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** What {@code bench udp} measured, with its targets judged against the blaster and the lossless rows. */
record UdpReport(String command, UdpBenchmark.Settings settings, List<UdpBenchmark.Row> rows, String machine) {
    /** Least share of the blaster's rate a lossless run must reach. */
    static final double OF_BLASTER = 0.50;
    /** Least share of the lossless rate a lossy run must keep. */
    static final double OF_LOSSLESS = 0.90;

    /** One target line. */
    record Target(String name, String required, String measured, boolean met) {}

    Optional<UdpBenchmark.Row> blaster(final int paths) {
        return rows.stream().filter(r -> r.isBlaster() && r.paths() == paths).findFirst();
    }

    Optional<UdpBenchmark.Row> lossless(final int paths, final int writeBytes) {
        return rows.stream()
                .filter(r -> !r.isBlaster() && r.paths() == paths && r.writeBytes() == writeBytes && r.loss() == 0)
                .findFirst();
    }

    /** Goodput of {@code row} over the blaster's with as many paths (sockets). */
    double ofBlaster(final UdpBenchmark.Row row) {
        return blaster(row.paths())
                .map(b -> row.goodputGbps() / b.goodputGbps())
                .orElse(Double.NaN);
    }

    /** Goodput of {@code row} over the lossless run of its paths and WRITE size. */
    double ofLossless(final UdpBenchmark.Row row) {
        return lossless(row.paths(), row.writeBytes())
                .map(l -> row.goodputGbps() / l.goodputGbps())
                .orElse(Double.NaN);
    }

    List<Target> targets() {
        final List<Target> targets = new ArrayList<>();
        for (final UdpBenchmark.Row row : rows) {
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

    /** Every WRITE succeeded and the bytes sampled at the receiver are the sender's. */
    static boolean correct(final UdpBenchmark.Row row) {
        return row.succeeded() == row.messages() && row.dataIntact();
    }

    static String size(final int bytes) {
        return bytes >= 1 << 20 ? bytes / (1 << 20) + " MiB" : bytes / 1024 + " KiB";
    }

    static String percent(final double share) {
        return String.format(Locale.ROOT, "%.1f%%", share * 100);
    }
}
