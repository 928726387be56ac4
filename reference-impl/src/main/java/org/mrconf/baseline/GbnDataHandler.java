package org.mrconf.baseline;

import java.nio.ByteBuffer;

/**
 * Receives the payload the {@link GbnResponder} accepts, strictly in order, once per byte. Tests use it
 * to check content; benchmarks usually need only the responder's counters.
 */
@FunctionalInterface
public interface GbnDataHandler {
    /**
     * Payload of one in-order DATA packet; the bytes are valid only during the call.
     *
     * @param messageId     the requester's message id
     * @param messageOffset where the bytes sit in the message
     * @param lastOfMessage whether the message is now complete
     */
    void onData(
            long messageId,
            int messageOffset,
            ByteBuffer buffer,
            int offset,
            int length,
            boolean lastOfMessage,
            long nowNs);
}
