package org.mrconf.softdut;

import java.net.InetAddress;

/**
 * Where an in-memory soft DUT's packets go ({@link SoftDut#inMemory}): the embedding tester. Called on the
 * DUT's loop thread for every packet the endpoint sends; it must return quickly and must not call
 * {@link SoftDut#control} (it may call {@link SoftDut#deliver}).
 */
@FunctionalInterface
public interface OutboundSink {
    /**
     * @param packet             the MetaRoCE packet (the UDP payload), a fresh array the sink may keep
     * @param destination        the peer's IP address, as its connection was created
     * @param destinationPort    the peer's MetaRoCE UDP port
     * @param sourcePort         the UDP source port: the path's entropy, unmapped
     * @param ecn                the IP ECN field (0 Not-ECT, 1 ECT(1), 2 ECT(0), 3 CE)
     */
    void accept(byte[] packet, InetAddress destination, int destinationPort, int sourcePort, int ecn);
}
