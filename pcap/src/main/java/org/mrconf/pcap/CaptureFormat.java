package org.mrconf.pcap;

/** The container format of a capture file, as told by its magic number. */
public enum CaptureFormat {
    /** Classic pcap with microsecond timestamps. */
    PCAP_MICRO,
    /** Classic pcap with nanosecond timestamps. */
    PCAP_NANO,
    /** pcapng; the resolution is per interface (if_tsresol), so it is not part of the format. */
    PCAPNG
}
