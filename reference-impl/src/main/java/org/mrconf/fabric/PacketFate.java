package org.mrconf.fabric;

/**
 * What an {@link LinkImpairment} decides for one packet entering a link: drop it, send extra copies, delay
 * it, or flip bits of its payload. The link resets one reused instance per packet, runs the
 * impairment, then acts on the outcome, so deciding allocates nothing.
 */
public final class PacketFate {
    private FabricPacket packet;
    private boolean dropped;
    private int duplicates;
    private long extraDelayNs;
    private int bitFlips;

    PacketFate() {}

    /** A fate over a standalone packet of {@code payload}, for exercising impairments in unit tests. */
    static PacketFate standalone(final byte[] payload) {
        final FabricPacket packet = new FabricPacket(null, Math.max(1, payload.length));
        System.arraycopy(payload, 0, packet.data, 0, payload.length);
        packet.length = payload.length;
        final PacketFate fate = new PacketFate();
        fate.reset(packet);
        return fate;
    }

    void reset(final FabricPacket packet) {
        this.packet = packet;
        dropped = false;
        duplicates = 0;
        extraDelayNs = 0;
        bitFlips = 0;
    }

    /** The packet being decided on. */
    public PacketView packet() {
        return packet;
    }

    /** The payload length, the range for {@link #flipBit(int)} being {@code [0, 8 * length)}. */
    public int length() {
        return packet.length;
    }

    /** Drops the packet; impairments after this one in a chain do not run. */
    public void drop() {
        dropped = true;
    }

    public boolean isDropped() {
        return dropped;
    }

    /** Sends one more copy of the packet right behind it. */
    public void duplicate() {
        duplicates++;
    }

    public int duplicates() {
        return duplicates;
    }

    /** Adds {@code delayNs} to the packet's propagation on this link; uneven delays reorder packets. */
    public void delay(final long delayNs) {
        if (delayNs < 0) {
            throw new IllegalArgumentException("delayNs=" + delayNs + " must not be negative");
        }
        extraDelayNs += delayNs;
    }

    public long extraDelayNs() {
        return extraDelayNs;
    }

    /**
     * Flips bit {@code bitIndex} of the payload now: bit {@code bitIndex % 8} (0 the least significant)
     * of byte {@code bitIndex / 8}. Copies made by {@link #duplicate()} carry the flip too.
     */
    public void flipBit(final int bitIndex) {
        if (bitIndex < 0 || bitIndex >= packet.length * 8) {
            throw new IndexOutOfBoundsException("bitIndex=" + bitIndex + " length=" + packet.length);
        }
        packet.data[bitIndex >>> 3] ^= (byte) (1 << (bitIndex & 7));
        bitFlips++;
    }

    public int bitFlips() {
        return bitFlips;
    }

    /** The payload byte at {@code index}, as the impairments have left it. */
    byte byteAt(final int index) {
        return packet.data[index];
    }

    @Override
    public String toString() {
        return "PacketFate{dropped=" + dropped + ", duplicates=" + duplicates + ", extraDelayNs=" + extraDelayNs
                + ", bitFlips=" + bitFlips + '}';
    }
}
