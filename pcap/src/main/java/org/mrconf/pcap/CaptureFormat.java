package org.mrconf.pcap;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** The container format of a capture file, as told by its magic number. */
@API(status = EXPERIMENTAL, since = "0.1")
public enum CaptureFormat {
    /** Classic pcap with microsecond timestamps. */
    PCAP_MICRO,
    /** Classic pcap with nanosecond timestamps. */
    PCAP_NANO,
    /** pcapng; the resolution is per interface (if_tsresol), so it is not part of the format. */
    PCAPNG
}
