package org.mrconf.transport;

/**
 * An optional part of the protocol the endpoint may leave out, each one profile of the draft (clause 12.1.1). An
 * endpoint built without one behaves as a device that does not claim that profile: it refuses the profile's
 * opcodes with NACK INVALID_REQUEST (clause 5.6.7), or, without congestion, sends every ACK with CE count 0 and no
 * rate limit (clause 8.2.6). The reference offers all by default.
 */
public enum Feature {
    /** READ_REQUEST and READ_RESPONSE: the read profile. */
    READ("read"),
    /** WRITE_WITH_IMMEDIATE: the immediate profile. */
    IMMEDIATE("immediate"),
    /** CE counts and rate hints in ACKs, and acting on them: the congestion profile. */
    CONGESTION("congestion");

    private final String profile;

    Feature(final String profile) {
        this.profile = profile;
    }

    /** The name of the profile this feature is, as {@code hello} lists it. */
    public String profile() {
        return profile;
    }
}
