package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;

/**
 * The arguments every posted work request or receive shares: where it goes (connection, stream), the id its
 * completion carries, and the local buffer (a region key, an address inside it and a length). Passed to
 * {@link DutControl#postReceive}, {@link DutControl#postSend}, {@link DutControl#postWrite} and
 * {@link DutControl#postRead}.
 *
 * @param connection the DUT's connection id (u32)
 * @param stream     0 to 65535
 * @param wrId       0 to 2^53 - 1, copied into the completion
 * @param key        the local region's key (u32)
 * @param address    the local buffer's first byte (u64 bits)
 * @param length     bytes
 */
@API(status = MAINTAINED, since = "0.1")
public record WorkRequest(long connection, int stream, long wrId, long key, long address, long length) {
    /** Largest work request id the protocol carries as a JSON number. */
    public static final long MAX_WR_ID = (1L << 53) - 1;

    public WorkRequest {
        ConnectionSpec.u32(connection, "connection");
        if (stream < 0 || stream > 0xFFFF) {
            throw new IllegalArgumentException("stream must be 0 to 65535: " + stream);
        }
        if (wrId < 0 || wrId > MAX_WR_ID) {
            throw new IllegalArgumentException("wrId must be 0 to 2^53 - 1: " + wrId);
        }
        ConnectionSpec.u32(key, "key");
        if (length < 0 || length > MAX_WR_ID) {
            throw new IllegalArgumentException("length must be 0 to 2^53 - 1: " + length);
        }
    }
}
