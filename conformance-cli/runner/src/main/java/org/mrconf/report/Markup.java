package org.mrconf.report;

/**
 * Escapes untrusted text (device identity, failure messages, decoded packets) for XML and HTML. Markup characters
 * become entities, and characters XML 1.0 cannot carry at all (C0 controls other than tab, newline and carriage
 * return, unpaired surrogates, U+FFFE/U+FFFF) become a visible {@code \\uXXXX}, so a hostile device can neither
 * inject markup nor make the file unparseable.
 */
final class Markup {
    private Markup() {}

    /** For element content, XML or HTML. */
    static String text(final String s) {
        return escape(s, false);
    }

    /** For a double- or single-quoted attribute value, XML or HTML; line breaks survive as character references. */
    static String attr(final String s) {
        return escape(s, true);
    }

    private static String escape(final String s, final boolean attribute) {
        final StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); ) {
            final int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            switch (cp) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                case '\r' -> out.append("&#13;"); // a parser would turn a literal CR into LF
                case '\n' -> out.append(attribute ? "&#10;" : "\n");
                case '\t' -> out.append(attribute ? "&#9;" : "\t");
                default -> {
                    if (isXmlChar(cp)) {
                        out.appendCodePoint(cp);
                    } else {
                        out.append(String.format("\\u%04X", cp));
                    }
                }
            }
        }
        return out.toString();
    }

    /** XML 1.0's Char production, less the three whitespace controls handled above. */
    private static boolean isXmlChar(final int cp) {
        return (cp >= 0x20 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
    }
}
