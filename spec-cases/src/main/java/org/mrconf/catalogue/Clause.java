package org.mrconf.catalogue;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * One numbered clause of the draft spec, as the catalogue holds it.
 *
 * @param id         the clause id, e.g. {@code 6.4.1}; equal to its section number in the spec
 * @param title      the clause heading
 * @param level      MUST, SHOULD or MAY
 * @param profile    the profile a device claims to be bound by it
 * @param provenance PUB or ENG
 * @param purpose    the test purpose, always "Ensure that the DUT ..."
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record Clause(String id, String title, Level level, Profile profile, Provenance provenance, String purpose) {

    /** Compares clause ids numerically, section by section, so 10.1.1 sorts after 9.1.5. */
    public static int compareIds(final String a, final String b) {
        final String[] left = a.split("\\.");
        final String[] right = b.split("\\.");
        for (int i = 0; i < Math.min(left.length, right.length); i++) {
            final int order = Integer.compare(Integer.parseInt(left[i]), Integer.parseInt(right[i]));
            if (order != 0) {
                return order;
            }
        }
        return Integer.compare(left.length, right.length);
    }
}
