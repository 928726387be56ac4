package org.mrconf.wire;

/**
 * The NACK codes of Table 9-1 and what the sender does on each. The decoder rejects a NACK whose code
 * is not listed; the reference transport and the suite use {@link #senderAction()}.
 */
public enum NackCode {
    REMOTE_ACCESS(0x01, SenderAction.FAIL_MESSAGE),
    BOUNDS(0x02, SenderAction.FAIL_MESSAGE),
    RECEIVER_NOT_READY(0x03, SenderAction.RETRY_LATER),
    MESSAGE_TOO_LONG(0x04, SenderAction.FAIL_MESSAGE),
    INVALID_REQUEST(0x05, SenderAction.FAIL_MESSAGE),
    UNKNOWN_CONNECTION(0x06, SenderAction.FAIL_CONNECTION),
    PSN_OUT_OF_WINDOW(0x07, SenderAction.RETRANSMIT);

    /** What the sender of the rejected packet does when it receives the NACK. */
    public enum SenderAction {
        /** Resend the rejected PSN and what follows it on the path. */
        RETRANSMIT,
        /** Resend after the NACK's retry-after interval. */
        RETRY_LATER,
        /** Complete the message's work request in error; the connection stays up. */
        FAIL_MESSAGE,
        /** Move the whole connection to the error state. */
        FAIL_CONNECTION
    }

    private static final NackCode[] BY_VALUE = new NackCode[256];

    static {
        for (NackCode code : values()) {
            BY_VALUE[code.value] = code;
        }
    }

    private final int value;
    private final SenderAction senderAction;

    NackCode(int value, SenderAction senderAction) {
        this.value = value;
        this.senderAction = senderAction;
    }

    /** The code with this byte value, or {@code null} if Table 9-1 does not define it; allocates nothing. */
    public static NackCode fromValue(int value) {
        return (value & ~0xFF) == 0 ? BY_VALUE[value] : null;
    }

    /** The code byte. */
    public int value() {
        return value;
    }

    /** What the sender does on receiving this code. */
    public SenderAction senderAction() {
        return senderAction;
    }
}
