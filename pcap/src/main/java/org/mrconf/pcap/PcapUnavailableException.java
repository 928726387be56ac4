package org.mrconf.pcap;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The native libpcap library (or JNA, which binds it) could not be loaded, so no live raw-Ethernet capture can be
 * opened (capture files do not need it). Unchecked because it is a broken
 * installation, not something a caller can recover from; the message says how to fix it.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class PcapUnavailableException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    static final String MESSAGE = "libpcap not found: install it with `sudo apt-get install libpcap0.8`";

    PcapUnavailableException(LinkageError cause) {
        // The cause's text is kept in the message: it tells a missing library from, say, a wrong architecture.
        super(MESSAGE + " (" + cause + ")", cause);
    }
}
