package org.mrconf.fabric;

/** Argument checks shared by the impairments. */
final class Probability {
    private Probability() {}

    static double check(final String name, final double value) {
        if (!(value >= 0.0 && value <= 1.0)) {
            throw new IllegalArgumentException(name + "=" + value + " must be in [0, 1]");
        }
        return value;
    }
}
