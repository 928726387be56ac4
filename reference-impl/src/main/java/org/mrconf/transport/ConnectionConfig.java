package org.mrconf.transport;

/**
 * What out-of-band setup agreed for one connection (spec clause 4.2.1).
 *
 * @param localId           this endpoint's connection id: packets to us carry it
 * @param peerId            the peer's connection id: packets we send carry it
 * @param peerNode          where the peer is (fabric node or socket peer index); packets from elsewhere
 *                          are dropped (clause 11.2.2)
 * @param pathCount         paths 0 to pathCount - 1 (1 to 256)
 * @param streamCount       streams 0 to streamCount - 1
 * @param initialSendPsn    first PSN of every path we send on
 * @param initialReceivePsn first PSN of every path the peer sends on
 * @param entropyBase       source port of path 0; path i starts at entropyBase + i
 * @param peerMaxOutstandingMessages the peer's maximum outstanding messages per stream (1 to 2^31; 2^31 is no
 *                          limit but the MSN window): no message starts that many MSNs past one not yet known finished
 *                          (spec clause 7.5.10)
 */
public record ConnectionConfig(
        int localId,
        int peerId,
        int peerNode,
        int pathCount,
        int streamCount,
        long initialSendPsn,
        long initialReceivePsn,
        int entropyBase,
        long peerMaxOutstandingMessages) {

    /** No limit but the MSN window (Table 5-13): the default of spec clause 4.2.1. */
    public static final long NO_MESSAGE_LIMIT = 1L << 31;

    public ConnectionConfig {
        if (pathCount < 1 || pathCount > 256) {
            throw new IllegalArgumentException("pathCount must be 1 to 256, was " + pathCount);
        }
        if (streamCount < 1 || streamCount > 65536) {
            throw new IllegalArgumentException("streamCount must be 1 to 65536, was " + streamCount);
        }
        if (entropyBase < 1024 || entropyBase + pathCount > 65536) {
            throw new IllegalArgumentException("entropyBase must leave room for every path in 1024..65535");
        }
        if (peerMaxOutstandingMessages < 1 || peerMaxOutstandingMessages > NO_MESSAGE_LIMIT) {
            throw new IllegalArgumentException(
                    "peerMaxOutstandingMessages must be 1 to 2^31, was " + peerMaxOutstandingMessages);
        }
    }

    /** A connection whose peer sets no limit on outstanding messages but the MSN window (clause 7.5.10 leaves the limit to the peer). */
    public ConnectionConfig(
            final int localId,
            final int peerId,
            final int peerNode,
            final int pathCount,
            final int streamCount,
            final long initialSendPsn,
            final long initialReceivePsn,
            final int entropyBase) {
        this(
                localId,
                peerId,
                peerNode,
                pathCount,
                streamCount,
                initialSendPsn,
                initialReceivePsn,
                entropyBase,
                NO_MESSAGE_LIMIT);
    }

    /** A connection with initial PSNs 0 and source ports from 49152. */
    public static ConnectionConfig of(
            final int localId, final int peerId, final int peerNode, final int pathCount, final int streamCount) {
        return new ConnectionConfig(localId, peerId, peerNode, pathCount, streamCount, 0, 0, 49152);
    }

    public ConnectionConfig withInitialPsns(final long send, final long receive) {
        return new ConnectionConfig(
                localId,
                peerId,
                peerNode,
                pathCount,
                streamCount,
                send,
                receive,
                entropyBase,
                peerMaxOutstandingMessages);
    }

    /** The same connection with the peer's maximum outstanding messages per stream (spec clause 7.5.10). */
    public ConnectionConfig withPeerMaxOutstandingMessages(final long limit) {
        return new ConnectionConfig(
                localId,
                peerId,
                peerNode,
                pathCount,
                streamCount,
                initialSendPsn,
                initialReceivePsn,
                entropyBase,
                limit);
    }
}
