package org.mrconf.pcap;

/** Timestamp resolution of a classic pcap file (the magic number records which one a file uses). */
public enum TimestampResolution {
    /** Microseconds (magic 0xA1B2C3D4); sub-microsecond digits are truncated on write. */
    MICRO,
    /** Nanoseconds (magic 0xA1B23C4D); an {@link java.time.Instant} round-trips exactly. */
    NANO
}
