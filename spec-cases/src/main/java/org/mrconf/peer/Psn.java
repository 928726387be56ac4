package org.mrconf.peer;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Serial number arithmetic on 32-bit PSNs, MSNs and RSNs (spec clause 2.4, RFC 1982), for the peer's state and the
 * matchers, so expectations hold across the wrap from 0xFFFFFFFF to 0.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Psn {
    /** Values are taken modulo 2^32. */
    public static final long MASK = 0xFFFF_FFFFL;

    private Psn() {}

    /** {@code (value + delta) mod 2^32}. */
    public static long add(long value, long delta) {
        return (value + delta) & MASK;
    }

    /** {@code (to - from) mod 2^32}: how far {@code to} lies after {@code from}. */
    public static long distance(long from, long to) {
        return (to - from) & MASK;
    }

    /** Whether {@code a} precedes {@code b}: {@code (b - a) mod 2^32} is 1 to 2^31 - 1. */
    public static boolean precedes(long a, long b) {
        long d = distance(a, b);
        return d >= 1 && d <= 0x7FFF_FFFFL;
    }

    /** Whether {@code a} is {@code b} or precedes it. */
    public static boolean atOrBefore(long a, long b) {
        return (a & MASK) == (b & MASK) || precedes(a, b);
    }
}
