package org.mrconf.transport;

/**
 * One completion, delivered in MSN order per stream (spec clause 7.5.2).
 *
 * @param workRequestId the id the application gave the work request or receive
 * @param connectionId  the local connection id
 * @param streamId      the stream
 * @param msn           the message sequence number of the message
 * @param type          what completed
 * @param status        success or the reason of failure
 * @param byteLength    bytes transferred (receive side: the message length)
 * @param immediate     the immediate data, for {@link WorkCompletionType#RECEIVE_IMMEDIATE}
 */
public record Completion(
        long workRequestId,
        int connectionId,
        int streamId,
        long msn,
        WorkCompletionType type,
        WorkCompletionStatus status,
        long byteLength,
        long immediate) {

    public boolean isSuccess() {
        return status == WorkCompletionStatus.SUCCESS;
    }
}
