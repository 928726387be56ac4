package org.mrconf.softdut;

/**
 * Where a soft DUT in frame mode ({@link SoftDut#inMemoryFrames}) sends its whole Ethernet frames: the embedding
 * tester. Called on the DUT's loop thread; it must return quickly and must not call {@link SoftDut#control}.
 */
@FunctionalInterface
public interface FrameSink {
    /** @param frame one Ethernet II frame (no FCS), a fresh array the sink may keep */
    void accept(byte[] frame);
}
