package org.mrconf.softdut;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;
import java.util.Map;
import org.mrconf.net.PacketTransmitter;

/**
 * What carries the soft DUT's packets: UDP sockets or an in-memory queue. The loop thread makes every
 * call except where an implementation says otherwise.
 */
interface Network {
    /** One received packet, as the loop hands it to the endpoint. The bytes are valid only during the call. */
    @FunctionalInterface
    interface Inbound {
        void onPacket(InetAddress source, int sourcePort, int ecn, ByteBuffer buffer, int offset, int length);
    }

    /** Registers the channels the selector must watch. */
    void register(Selector selector) throws IOException;

    /** Hands up to {@code budget} received packets to {@code inbound}; returns how many it handed. */
    int receive(Inbound inbound, int budget);

    /** Whether received packets carry the ECN field they arrived with (spec clause 8.2.5). */
    boolean seesReceivedEcn();

    /** Whether packets wait that the selector cannot see (the in-memory queue, the native UDP socket). */
    boolean hasPending();

    /** Where the endpoint's packets go. */
    PacketTransmitter transmitter();

    SocketPeers peers();

    /** The network's own counters, plain names. */
    Map<String, Long> counters();

    /** Releases every socket; called once, by the loop thread as it stops. */
    void close();
}
