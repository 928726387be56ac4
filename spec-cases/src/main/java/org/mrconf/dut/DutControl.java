package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * The control channel to a device under test: one typed method per operation of the DUT control protocol
 * ({@code docs/dut-control-protocol.md}, section 4), the upper point of control and observation of ISO/IEC 9646.
 * Test cases set up state and read results through it; the wire is reached through {@link WireLink}.
 *
 * <p>{@link JsonLineControlClient} speaks the protocol; a vendor may instead implement this interface directly
 * against its own driver. Every method throws {@link DutControlException} with the protocol's error code when
 * the device refuses or the channel fails. Implementations need not be thread-safe: a test calls one method at a
 * time.
 */
@API(status = MAINTAINED, since = "0.1")
public interface DutControl extends AutoCloseable {
    /** {@code hello}: names the implementation and what it claims; the suite calls it first. */
    DutInfo hello() throws DutControlException;

    /** {@code reset}: destroys every connection and region and zeroes every counter. */
    void reset() throws DutControlException;

    /**
     * {@code create_connection}.
     *
     * @return the UDP source port (entropy) each path starts with, indexed by path id
     */
    List<Integer> createConnection(ConnectionSpec spec) throws DutControlException;

    /** {@code destroy_connection}: outstanding work completes with {@link CompletionStatus#FLUSHED}. */
    void destroyConnection(long localId) throws DutControlException;

    /**
     * {@code register_region}: a zero-filled region of {@code length} bytes (1 to 2^30) at {@code address}.
     *
     * @return the region's key (u32)
     */
    long registerRegion(long address, long length, Set<RegionAccess> access) throws DutControlException;

    /** {@code invalidate_region}: after it returns no packet touches the region (spec clause 11.1.4). */
    void invalidateRegion(long key) throws DutControlException;

    /** {@code write_region}: writes local bytes, e.g. a message to send. */
    void writeRegion(long key, long address, byte[] data) throws DutControlException;

    /** {@code read_region}: reads {@code length} local bytes, e.g. what a WRITE placed. */
    byte[] readRegion(long key, long address, int length) throws DutControlException;

    /** {@code post_receive}: a receive buffer; SENDs on the stream consume receives in posting order. */
    void postReceive(WorkRequest receive) throws DutControlException;

    /**
     * {@code post_write}: sends the local buffer of {@code source} to {@code remoteAddress} of the peer's region
     * {@code remoteKey}; with an immediate the DUT sends a WRITE_WITH_IMMEDIATE.
     */
    void postWrite(WorkRequest source, long remoteAddress, long remoteKey, OptionalLong immediate)
            throws DutControlException;

    /** {@code post_write} without immediate data. */
    default void postWrite(WorkRequest source, long remoteAddress, long remoteKey) throws DutControlException {
        postWrite(source, remoteAddress, remoteKey, OptionalLong.empty());
    }

    /** {@code post_send}: sends the local buffer of {@code source} as a SEND. */
    void postSend(WorkRequest source) throws DutControlException;

    /** {@code post_read}: reads the peer's {@code remoteAddress} of region {@code remoteKey} into the local sink. */
    void postRead(WorkRequest sink, long remoteAddress, long remoteKey) throws DutControlException;

    /**
     * {@code poll_completions}: up to {@code max} (1 to 4096) completions, oldest first, waiting up to
     * {@code wait} (0 to 10 s) for the first one; an empty list when none came.
     */
    List<DutCompletion> pollCompletions(int max, Duration wait) throws DutControlException;

    /** {@code read_counters}: every counter the device keeps, standard ({@link DutCounters}) and {@code x_} ones. */
    Map<String, Long> readCounters() throws DutControlException;

    /**
     * {@code path_status} (optional): the paths of a connection, or empty when the device does not offer the
     * operation, so that tests needing it report "not applicable".
     */
    Optional<List<PathState>> pathStatus(long connection) throws DutControlException;

    /** Releases the channel; further calls fail with {@link DutErrorCode#TRANSPORT}. */
    @Override
    void close();
}
