package org.mrconf.report;

/**
 * Makes untrusted text safe to print on a terminal: control characters (C0 other than newline and tab, DEL, C1)
 * and the bidirectional overrides that can reorder what a reader sees become a visible {@code \\uXXXX}, so a
 * device's message cannot move the cursor, recolour the screen or disguise itself.
 */
public final class Terminal {
    private Terminal() {}

    public static String safe(final String s) {
        final StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); ) {
            final int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            final boolean control = (cp < 0x20 && cp != '\n' && cp != '\t') || (cp >= 0x7F && cp <= 0x9F);
            final boolean bidi = (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
            if (control || bidi || Character.getType(cp) == Character.SURROGATE) {
                out.append(String.format("\\u%04X", cp));
            } else {
                out.appendCodePoint(cp);
            }
        }
        return out.toString();
    }
}
