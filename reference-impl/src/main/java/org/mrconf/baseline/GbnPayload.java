package org.mrconf.baseline;

import java.nio.ByteBuffer;

/**
 * The deterministic payload the requester sends when {@link GbnConfig#patternPayload()} is on: byte
 * {@code i} of message {@code m} is a hash of (m, i), so the responder and tests can check every byte
 * arrived, in place, without keeping a copy.
 */
public final class GbnPayload {
    private GbnPayload() {}

    /** Byte {@code messageOffset} of message {@code messageId}. */
    public static byte byteAt(final long messageId, final int messageOffset) {
        int x = (int) messageId * 0x9E37_79B1 + messageOffset;
        x ^= x >>> 15;
        x *= 0x85EB_CA6B;
        x ^= x >>> 13;
        return (byte) x;
    }

    /** Writes {@code length} pattern bytes for message {@code messageId} from {@code messageOffset}. */
    public static void fill(
            final ByteBuffer buffer, final int index, final long messageId, final int messageOffset, final int length) {
        for (int i = 0; i < length; i++) {
            buffer.put(index + i, byteAt(messageId, messageOffset + i));
        }
    }

    /** Whether {@code length} bytes at {@code index} are the pattern for that part of the message. */
    public static boolean matches(
            final ByteBuffer buffer, final int index, final long messageId, final int messageOffset, final int length) {
        for (int i = 0; i < length; i++) {
            if (buffer.get(index + i) != byteAt(messageId, messageOffset + i)) {
                return false;
            }
        }
        return true;
    }
}
