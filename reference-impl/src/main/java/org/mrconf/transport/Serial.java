package org.mrconf.transport;

/** 32-bit serial number arithmetic (RFC 1982), as spec clause 2.4 and 6.1.2 require for PSNs and MSNs. */
final class Serial {
    static final long MASK = 0xFFFF_FFFFL;
    private static final long HALF = 1L << 31;

    private Serial() {}

    /** {@code (b - a) mod 2^32}: how far {@code b} is after {@code a}. */
    static long distance(final long a, final long b) {
        return (b - a) & MASK;
    }

    /** Whether {@code a} precedes {@code b}. */
    static boolean before(final long a, final long b) {
        final long d = distance(a, b);
        return d != 0 && d < HALF;
    }

    /** {@code a + n mod 2^32}. */
    static long add(final long a, final long n) {
        return (a + n) & MASK;
    }
}
