package org.mrconf.softdut;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Inet4Address;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import org.mrconf.agent.PeerDirectory;

/** The soft DUT's peer table holds the peers in use and nothing more. */
class SocketPeersTest {
    private static final int PEERS = 20_000;

    @Test
    void shouldForgetAPeerWhenItsLastConnectionGoes() throws Exception {
        final SocketPeers peers = new SocketPeers(Inet4Address.class, entropy -> entropy);

        for (int i = 0; i < PEERS; i++) {
            final int node = peers.acquire(address(i), 4796);
            peers.release(node);
        }

        assertThat(peers.size())
                .as("peers left after %d create/destroy cycles", PEERS)
                .isZero();
    }

    @Test
    void shouldKeepAPeerWhileAnyConnectionUsesIt() throws Exception {
        final SocketPeers peers = new SocketPeers(Inet4Address.class, entropy -> entropy);
        final InetAddress peer = address(1);
        final int node = peers.acquire(peer, 4796);
        assertThat(peers.acquire(peer, 4796)).isEqualTo(node);

        peers.release(node);
        assertThat(peers.nodeOf(peer)).isEqualTo(node);
        assertThat(peers.destination(node).getPort()).isEqualTo(4796);

        peers.release(node);
        assertThat(peers.nodeOf(peer)).isEqualTo(PeerDirectory.UNKNOWN_NODE);
        assertThat(peers.destination(node)).isNull();
    }

    private static InetAddress address(final int i) throws Exception {
        return InetAddress.getByAddress(new byte[] {10, (byte) (i >>> 16), (byte) (i >>> 8), (byte) i});
    }
}
