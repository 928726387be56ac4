package org.mrconf.agent;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The authentication rule of the control protocol (section 3): an agent reachable from anywhere but
 * loopback must be started with a token of at least {@value #MIN_TOKEN_LENGTH} characters, and every
 * request must then carry exactly that token.
 */
public final class TokenPolicy {
    /** Shortest token an agent bound off loopback accepts. */
    public static final int MIN_TOKEN_LENGTH = 16;

    private TokenPolicy() {}

    /**
     * Checks that an agent may listen on {@code bindAddress} with {@code token} (null for none); called
     * before anything is bound.
     *
     * @throws IllegalArgumentException naming what is missing
     */
    public static void check(final InetAddress bindAddress, final String token) {
        if (token != null && token.isEmpty()) {
            throw new IllegalArgumentException("the token must not be empty");
        }
        if (!bindAddress.isLoopbackAddress() && (token == null || token.length() < MIN_TOKEN_LENGTH)) {
            throw new IllegalArgumentException("an agent bound to " + bindAddress.getHostAddress()
                    + " (not loopback) requires a token of at least " + MIN_TOKEN_LENGTH + " characters");
        }
    }

    /** Whether {@code given} is {@code expected}, in time independent of where they differ. */
    static boolean matches(final String expected, final String given) {
        return given != null
                && MessageDigest.isEqual(
                        expected.getBytes(StandardCharsets.UTF_8), given.getBytes(StandardCharsets.UTF_8));
    }
}
