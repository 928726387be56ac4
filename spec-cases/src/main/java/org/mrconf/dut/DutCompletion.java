package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One completion from {@code poll_completions}: a work request or receive of the DUT that finished.
 *
 * @param wrId       the work request id it was posted with
 * @param connection the DUT's connection id
 * @param stream     the stream
 * @param msn        the message sequence number, or {@link #NO_MSN} for a receive flushed before any SEND
 *                   used it (the protocol sends {@code null})
 * @param type       what completed
 * @param status     how it ended
 * @param length     bytes transferred (for receives: the message length)
 * @param immediate  the immediate data of a WRITE_WITH_IMMEDIATE, else 0
 */
@API(status = MAINTAINED, since = "0.1")
public record DutCompletion(
        long wrId,
        long connection,
        int stream,
        long msn,
        CompletionType type,
        CompletionStatus status,
        long length,
        long immediate) {
    /** The msn of a completion that belongs to no message. */
    public static final long NO_MSN = -1;

    public DutCompletion {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(status, "status");
    }

    public boolean isSuccess() {
        return status.isSuccess();
    }
}
