package org.mrconf.wire;

import java.util.HexFormat;

/** Hex text for golden packets: whitespace is ignored and {@code #} starts a comment to the end of the line. */
final class Hex {
    private Hex() {}

    static byte[] bytes(String annotatedHex) {
        StringBuilder digits = new StringBuilder();
        for (String line : annotatedHex.split("\n")) {
            int comment = line.indexOf('#');
            digits.append((comment >= 0 ? line.substring(0, comment) : line).replaceAll("\\s+", ""));
        }
        return HexFormat.of().parseHex(digits);
    }

    static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
