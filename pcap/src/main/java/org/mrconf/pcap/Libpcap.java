package org.mrconf.pcap;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;
import org.pcap4j.core.Pcaps;

/**
 * Checks that the native libpcap can be loaded, once, before anything else touches it. Only live capture needs it:
 * the raw-Ethernet link calls this before it opens an interface, and is the one place that reports libpcap's
 * absence. Capture files ({@link PcapReader}, {@link PcapWriter}) are pure Java and never load libpcap.
 *
 * <p>Why a separate check: when the library is missing, Pcap4J 1.8.2's precision-aware calls
 * ({@code Pcaps.openDead(.., TimestampPrecision)}, {@code Pcaps.openOffline(.., TimestampPrecision)}) catch the
 * {@link UnsatisfiedLinkError} and report "…_with_tstamp_precision is not supported by the pcap library", which
 * reads like an old libpcap rather than none. {@code pcap_lib_version} goes through Pcap4J's core binding, whose
 * failure surfaces as a {@link LinkageError} we can name properly.
 */
@API(status = INTERNAL, since = "0.1")
public final class Libpcap {

    private static volatile String version;

    private Libpcap() {}

    /**
     * The loaded libpcap's version string, such as {@code libpcap version 1.10.3 (with TPACKET_V3)}.
     *
     * @throws PcapUnavailableException if libpcap (or JNA) cannot be loaded
     */
    public static String version() {
        String v = version;
        if (v == null) {
            try {
                v = Pcaps.libVersion();
            } catch (LinkageError e) {
                // UnsatisfiedLinkError on first use, NoClassDefFoundError ("Could not initialize class") after.
                throw new PcapUnavailableException(e);
            }
            version = v;
        }
        return v;
    }
}
