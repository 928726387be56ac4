package org.mrconf.report;

import java.util.List;
import java.util.Locale;
import org.mrconf.verdict.Evidence;

/**
 * Draws a case's evidence packets as a ladder (sequence) diagram in inline SVG: the tester's line on the left, the
 * device's on the right, one arrow per packet in time order, labelled with its offset and decoded summary. Every
 * label is escaped: summaries can echo bytes the device sent.
 */
final class LadderDiagram {
    private static final int WIDTH = 1000;
    private static final int LEFT = 110;
    private static final int RIGHT = 890;
    private static final int TOP = 40;
    private static final int ROW = 34;
    /** Longer summaries are cut so the label fits between the two lines; the table above holds the whole text. */
    private static final int MAX_LABEL = 105;

    private LadderDiagram() {}

    static String svg(final List<Evidence.PacketRecord> packets) {
        final int height = TOP + ROW * packets.size() + 20;
        final StringBuilder s = new StringBuilder(512 + 256 * packets.size());
        s.append("<svg class=\"ladder\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"")
                .append(WIDTH)
                .append("\" height=\"")
                .append(height)
                .append("\" viewBox=\"0 0 ")
                .append(WIDTH)
                .append(' ')
                .append(height)
                .append("\"><title>Packet exchange between the tester and the device</title>");
        s.append("<text x=\"").append(LEFT).append("\" y=\"18\" text-anchor=\"middle\" class=\"end\">tester</text>");
        s.append("<text x=\"").append(RIGHT).append("\" y=\"18\" text-anchor=\"middle\" class=\"end\">device</text>");
        line(s, LEFT, 26, LEFT, height - 6, "life");
        line(s, RIGHT, 26, RIGHT, height - 6, "life");
        for (int i = 0; i < packets.size(); i++) {
            final Evidence.PacketRecord p = packets.get(i);
            final int y = TOP + ROW * i + 14;
            final boolean fromTester = PcapSlices.TESTER_TO_DUT.equals(p.direction());
            final int x1 = fromTester ? LEFT : RIGHT;
            final int x2 = fromTester ? RIGHT : LEFT;
            // The whole summary as a tooltip: the label may be cut to fit between the lines.
            s.append("<g><title>").append(Markup.text(p.summary())).append("</title>");
            s.append("<text x=\"4\" y=\"")
                    .append(y + 4)
                    .append("\" class=\"t\">")
                    .append(String.format(Locale.ROOT, "%.3f ms", p.timeNs() / 1e6))
                    .append("</text>");
            line(s, x1, y, x2, y, fromTester ? "arrow out" : "arrow in");
            final int head = fromTester ? -8 : 8;
            s.append("<polygon class=\"")
                    .append(fromTester ? "out" : "in")
                    .append("\" points=\"")
                    .append(x2)
                    .append(',')
                    .append(y)
                    .append(' ')
                    .append(x2 + head)
                    .append(',')
                    .append(y - 4)
                    .append(' ')
                    .append(x2 + head)
                    .append(',')
                    .append(y + 4)
                    .append("\"/>");
            s.append("<text x=\"")
                    .append((LEFT + RIGHT) / 2)
                    .append("\" y=\"")
                    .append(y - 5)
                    .append("\" text-anchor=\"middle\" class=\"label\">")
                    .append(Markup.text(cut(p.summary())))
                    .append("</text></g>");
        }
        return s.append("</svg>").toString();
    }

    private static void line(
            final StringBuilder s, final int x1, final int y1, final int x2, final int y2, final String cls) {
        s.append("<line class=\"")
                .append(cls)
                .append("\" x1=\"")
                .append(x1)
                .append("\" y1=\"")
                .append(y1)
                .append("\" x2=\"")
                .append(x2)
                .append("\" y2=\"")
                .append(y2)
                .append("\"/>");
    }

    private static String cut(final String summary) {
        final String oneLine = summary.replace('\n', ' ').replace('\r', ' ');
        if (oneLine.codePointCount(0, oneLine.length()) <= MAX_LABEL) {
            return oneLine;
        }
        return oneLine.substring(0, oneLine.offsetByCodePoints(0, MAX_LABEL - 1)) + "\u2026";
    }
}
