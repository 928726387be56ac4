package org.mrconf.baseline;

/**
 * Spaces the requester's DATA packets at a line rate, as a NIC's transmit engine does, so a window is
 * not dumped into the host queue at once (which would also delay go-back-N retransmissions behind it).
 * Keeps its schedule in picoseconds so the rate does not drift. Rate 0 means unpaced.
 */
final class LinePacer {
    private final long rateBps;
    private final int wireOverheadBytes;
    private long nextSendPs = Long.MIN_VALUE;

    LinePacer(final long rateBps, final int wireOverheadBytes) {
        this.rateBps = rateBps;
        this.wireOverheadBytes = wireOverheadBytes;
    }

    boolean isReady(final long nowNs) {
        return rateBps == 0 || nextSendPs <= nowNs * 1000L;
    }

    /** A packet of {@code udpBytes} went at {@code nowNs}: the next may go one serialisation later. */
    void onSend(final long nowNs, final int udpBytes) {
        if (rateBps != 0) {
            final long wireBits = (long) (udpBytes + wireOverheadBytes) * 8L;
            nextSendPs = Math.max(nextSendPs, nowNs * 1000L) + wireBits * 1_000_000_000_000L / rateBps;
        }
    }

    /** When the next packet may go (in the past if it may go now). */
    long nextSendNs() {
        return nextSendPs == Long.MIN_VALUE ? Long.MIN_VALUE : Math.floorDiv(nextSendPs + 999L, 1000L);
    }
}
