package org.mrconf.wire;

/**
 * Thrown by {@link PacketDecoder#decodeOrThrow} and {@link Packet#decode} for tools and tests that
 * prefer an exception to a status; carries its own copy of the {@link DecodeError}.
 */
public final class MalformedPacketException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient DecodeError error;

    public MalformedPacketException(DecodeError error) {
        super(error.toString());
        this.error = error.copy();
    }

    /** The reason the packet was rejected. */
    public DecodeError error() {
        return error;
    }

    /** Shortcut for {@code error().kind()}. */
    public DecodeStatus status() {
        return error.kind();
    }
}
