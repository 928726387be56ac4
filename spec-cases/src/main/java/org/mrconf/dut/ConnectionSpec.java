package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.net.InetAddress;
import java.util.Objects;
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
        long initialReceivePsn) {
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
    }

    /** A connection with initial PSNs 0 in both directions, the spec's default. */
    public static ConnectionSpec of(
            long localId, long peerId, InetAddress peerAddress, int peerPort, int paths, int streams) {
        return new ConnectionSpec(localId, peerId, peerAddress, peerPort, paths, streams, 0, 0);
    }

    public ConnectionSpec withInitialPsns(long sendPsn, long receivePsn) {
        return new ConnectionSpec(localId, peerId, peerAddress, peerPort, paths, streams, sendPsn, receivePsn);
    }

    static void u32(long value, String name) {
        if ((value & ~0xFFFF_FFFFL) != 0) {
            throw new IllegalArgumentException(name + " must fit 32 bits unsigned: " + value);
        }
    }
}
