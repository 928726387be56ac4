package org.mrconf.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Draws goodput relative to lossless against loss rate, one line per transport, as a small SVG. */
final class GoodputChart {
    private static final int WIDTH = 720;
    private static final int HEIGHT = 420;
    private static final int LEFT = 70;
    private static final int RIGHT = 200;
    private static final int TOP = 40;
    private static final int BOTTOM = 60;
    private static final String[] COLOURS = {"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e"};

    private GoodputChart() {}

    static String svg(final LossReport report) {
        final Map<String, List<LossReport.Row>> series = new LinkedHashMap<>();
        final List<Double> lossRates = new ArrayList<>();
        for (final LossReport.Row row : report.rows()) {
            series.computeIfAbsent(row.label(), k -> new ArrayList<>()).add(row);
            if (!lossRates.contains(row.run().lossRate())) {
                lossRates.add(row.run().lossRate());
            }
        }
        final int plotWidth = WIDTH - LEFT - RIGHT;
        final int plotHeight = HEIGHT - TOP - BOTTOM;
        final StringBuilder svg = new StringBuilder();
        svg.append(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                        + "font-family=\"sans-serif\" font-size=\"12\">%n",
                WIDTH,
                HEIGHT));
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        svg.append(String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"22\" font-size=\"15\">Goodput under random loss "
                        + "(relative to the same transport without loss)</text>%n",
                LEFT));
        for (int pct = 0; pct <= 100; pct += 20) {
            final double y = TOP + plotHeight * (1 - pct / 100.0);
            svg.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n",
                    LEFT,
                    y,
                    LEFT + plotWidth,
                    y));
            svg.append(String.format(
                    Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d%%</text>%n", LEFT - 6, y + 4, pct));
        }
        for (int i = 0; i < lossRates.size(); i++) {
            final double x = x(i, lossRates.size(), plotWidth);
            svg.append(String.format(
                    Locale.ROOT,
                    "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s%%</text>%n",
                    x,
                    TOP + plotHeight + 18,
                    trim(lossRates.get(i) * 100)));
        }
        svg.append(String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">random loss on every core link</text>%n",
                LEFT + plotWidth / 2,
                HEIGHT - 18));
        svg.append(String.format(
                Locale.ROOT,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n",
                LEFT,
                TOP + plotHeight,
                LEFT + plotWidth,
                TOP + plotHeight));
        svg.append(String.format(
                Locale.ROOT,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n",
                LEFT,
                TOP,
                LEFT,
                TOP + plotHeight));
        int colour = 0;
        for (final Map.Entry<String, List<LossReport.Row>> entry : series.entrySet()) {
            final String stroke = COLOURS[colour % COLOURS.length];
            final StringBuilder points = new StringBuilder();
            for (final LossReport.Row row : entry.getValue()) {
                final double x = x(lossRates.indexOf(row.run().lossRate()), lossRates.size(), plotWidth);
                final double y = TOP + plotHeight * (1 - Math.max(0, Math.min(1, row.relativeGoodput())));
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
                svg.append(String.format(
                        Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>%n", x, y, stroke));
            }
            svg.append(String.format(
                    Locale.ROOT,
                    "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>%n",
                    points.toString().trim(),
                    stroke));
            final int legendY = TOP + 16 + colour * 20;
            svg.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"/>%n",
                    LEFT + plotWidth + 16,
                    legendY - 4,
                    LEFT + plotWidth + 40,
                    legendY - 4,
                    stroke));
            svg.append(String.format(
                    Locale.ROOT,
                    "<text x=\"%d\" y=\"%d\">%s</text>%n",
                    LEFT + plotWidth + 46,
                    legendY,
                    entry.getKey()));
            colour++;
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private static double x(final int index, final int count, final int plotWidth) {
        return LEFT + 20 + (plotWidth - 40) * (count == 1 ? 0.5 : index / (double) (count - 1));
    }

    private static String trim(final double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
    }
}
