package org.mrconf.pcap;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** Timestamp resolution of a classic pcap file (the magic number records which one a file uses). */
@API(status = EXPERIMENTAL, since = "0.1")
public enum TimestampResolution {
    /** Microseconds (magic 0xA1B2C3D4); sub-microsecond digits are truncated on write. */
    MICRO,
    /** Nanoseconds (magic 0xA1B23C4D); an {@link java.time.Instant} round-trips exactly. */
    NANO
}
