package org.mrconf.defect;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The catalogue of deliberate non-conformances the reference can be told to commit, so that {@code metaroce selftest}
 * can prove each conformance case catches what its clause forbids. Each constant says in one sentence what it does
 * wrong, names the clauses it breaks and the case that catches it, and is consulted at exactly one decision point of
 * the reference (read once into a final boolean field, so a defect that is off costs nothing measurable).
 *
 * <p>Every constant is off unless selected with {@code metaroce dut serve --defect NAME} or
 * {@code --dut 'reference?defect=NAME'}; a device running any of them says so in {@code hello}.
 *
 * <p>Constants are grouped by spec section, one block per section range, so that additions merge cleanly.
 */
public enum Defect {
    // ------------------------------------------------------------------ sections 3 to 5

    /** Drops packets whose minor version is not 0, instead of accepting any minor version of major 1. */
    STRICT_MINOR_VERSION(breaks("5.6.3")),

    /** Places and acknowledges a packet whose CRC32C trailer does not match instead of dropping it. */
    ACCEPT_BAD_CRC(breaks("5.6.2")),

// ------------------------------------------------------------------ sections 6 and 7

// ------------------------------------------------------------------ sections 8 to 12

;

    private final List<String> clauses;

    Defect(final List<String> clauses) {
        this.clauses = clauses;
    }

    private static List<String> breaks(final String... clauseIds) {
        return List.of(clauseIds);
    }

    /** The ids of the spec clauses this defect breaks: the cases of these clauses must FAIL against it. */
    public List<String> clauses() {
        return clauses;
    }

    /** The name used on the command line and in {@code hello}: lower case with dashes, e.g. {@code accept-bad-crc}. */
    public String flagName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * The defect named {@code name}, in {@link #flagName()} form or as the constant's name.
     *
     * @throws IllegalArgumentException naming the unknown name and listing every known one
     */
    public static Defect fromName(final String name) {
        final String normalised = name.strip().toUpperCase(Locale.ROOT).replace('-', '_');
        for (final Defect defect : values()) {
            if (defect.name().equals(normalised)) {
                return defect;
            }
        }
        throw new IllegalArgumentException("unknown defect \"" + name.strip() + "\"; known defects: " + allNames());
    }

    /** Every flag name, comma separated, in catalogue order. */
    public static String allNames() {
        return Arrays.stream(values()).map(Defect::flagName).collect(Collectors.joining(", "));
    }
}
