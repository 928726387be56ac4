package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.net.InetAddress;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The arguments of {@code create_connection}: what spec clause 4.2.1 says both ends of a connection agree on out
 * of band. Ids are u32, PSNs u32, ports u16.
 *
 * @param localId           the DUT's connection id: packets to the DUT carry it
 * @param peerId            the tester's connection id: packets from the DUT carry it
 * @param peerAddress       the tester's IP address
 * @param peerPort          the tester's MetaRoCE UDP port
 * @param paths             1 to 256
 * @param streams           1 to 65536
 * @param initialSendPsn    first PSN of each path the DUT sends on
 * @param initialReceivePsn first PSN of each path the tester sends on
 * @param peerMaxOutstandingMessages the tester's maximum outstanding messages per stream, 1 to 2^31 ({@link
 *     #NO_MESSAGE_LIMIT}, the default, is no limit but the MSN window; spec clause 7.5.10)
 * @param localAddress      the DUT's own address every packet of the connection leaves from, or empty for the DUT's
 *     choice (spec clause 4.2.3)
 */
@API(status = MAINTAINED, since = "0.1")
public record ConnectionSpec(
        long localId,
        long peerId,
        InetAddress peerAddress,
        int peerPort,
        int paths,
        int streams,
        long initialSendPsn,
        long initialReceivePsn,
        long peerMaxOutstandingMessages,
        Optional<InetAddress> localAddress) {
    /** No limit on outstanding messages but the MSN window: spec clause 4.2.1's default. */
    public static final long NO_MESSAGE_LIMIT = 1L << 31;

    public ConnectionSpec {
        u32(localId, "localId");
        u32(peerId, "peerId");
        Objects.requireNonNull(peerAddress, "peerAddress");
        if (peerPort < 0 || peerPort > 0xFFFF) {
            throw new IllegalArgumentException("peerPort must be 0 to 65535: " + peerPort);
        }
        if (paths < 1 || paths > 256) {
            throw new IllegalArgumentException("paths must be 1 to 256: " + paths);
        }
        if (streams < 1 || streams > 65_536) {
            throw new IllegalArgumentException("streams must be 1 to 65536: " + streams);
        }
        u32(initialSendPsn, "initialSendPsn");
        u32(initialReceivePsn, "initialReceivePsn");
        if (peerMaxOutstandingMessages < 1 || peerMaxOutstandingMessages > NO_MESSAGE_LIMIT) {
            throw new IllegalArgumentException(
                    "peerMaxOutstandingMessages must be 1 to 2^31: " + peerMaxOutstandingMessages);
        }
        Objects.requireNonNull(localAddress, "localAddress");
    }

    /**
     * The arguments without the optional ones: no limit on outstanding messages (clause 7.5.10), no local address.
     *
     * @deprecated use the canonical constructor or {@link #withPeerMaxOutstandingMessages}; kept so that code written
     *     against 0.12 still compiles
     */
    @Deprecated(since = "0.13")
    public ConnectionSpec(
            final long localId,
            final long peerId,
            final InetAddress peerAddress,
            final int peerPort,
            final int paths,
            final int streams,
            final long initialSendPsn,
            final long initialReceivePsn) {
        this(
                localId,
                peerId,
                peerAddress,
                peerPort,
                paths,
                streams,
                initialSendPsn,
                initialReceivePsn,
                NO_MESSAGE_LIMIT,
                Optional.empty());
    }

    /** A connection with initial PSNs 0 in both directions, the spec's default. */
    public static ConnectionSpec of(
            long localId, long peerId, InetAddress peerAddress, int peerPort, int paths, int streams) {
        return new ConnectionSpec(
                localId, peerId, peerAddress, peerPort, paths, streams, 0, 0, NO_MESSAGE_LIMIT, Optional.empty());
    }

    public ConnectionSpec withInitialPsns(long sendPsn, long receivePsn) {
        final Copy copy = new Copy(this);
        copy.initialSendPsn = sendPsn;
        copy.initialReceivePsn = receivePsn;
        return copy.build();
    }

    /** The same connection with the tester's maximum outstanding messages per stream (spec clause 7.5.10). */
    public ConnectionSpec withPeerMaxOutstandingMessages(final long limit) {
        final Copy copy = new Copy(this);
        copy.peerMaxOutstandingMessages = limit;
        return copy.build();
    }

    /** The same connection with the DUT's own address every packet leaves from (spec clause 4.2.3). */
    public ConnectionSpec withLocalAddress(final InetAddress address) {
        final Copy copy = new Copy(this);
        copy.localAddress = Optional.of(address);
        return copy.build();
    }

    /** The same connection under other ids: a second connection like this one. */
    public ConnectionSpec withIds(final long newLocalId, final long newPeerId) {
        final Copy copy = new Copy(this);
        copy.localId = newLocalId;
        copy.peerId = newPeerId;
        return copy.build();
    }

    /** The components of a spec, to change some and build another: one place that lists them all for the withers. */
    private static final class Copy {
        private long localId;
        private long peerId;
        private final InetAddress peerAddress;
        private final int peerPort;
        private final int paths;
        private final int streams;
        private long initialSendPsn;
        private long initialReceivePsn;
        private long peerMaxOutstandingMessages;
        private Optional<InetAddress> localAddress;

        Copy(final ConnectionSpec from) {
            localId = from.localId;
            peerId = from.peerId;
            peerAddress = from.peerAddress;
            peerPort = from.peerPort;
            paths = from.paths;
            streams = from.streams;
            initialSendPsn = from.initialSendPsn;
            initialReceivePsn = from.initialReceivePsn;
            peerMaxOutstandingMessages = from.peerMaxOutstandingMessages;
            localAddress = from.localAddress;
        }

        ConnectionSpec build() {
            return new ConnectionSpec(
                    localId,
                    peerId,
                    peerAddress,
                    peerPort,
                    paths,
                    streams,
                    initialSendPsn,
                    initialReceivePsn,
                    peerMaxOutstandingMessages,
                    localAddress);
        }
    }

    static void u32(long value, String name) {
        if ((value & ~0xFFFF_FFFFL) != 0) {
            throw new IllegalArgumentException(name + " must fit 32 bits unsigned: " + value);
        }
    }
}
