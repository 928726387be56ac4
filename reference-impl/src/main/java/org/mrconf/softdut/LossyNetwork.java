package org.mrconf.softdut;

import java.io.IOException;
import java.nio.channels.Selector;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.mrconf.net.PacketTransmitter;

/**
 * A {@link Network} that drops a seeded share of the datagrams the one it wraps receives, before the
 * endpoint sees them: wire loss on loopback for {@code metaroce bench udp}. The socket still reads each
 * dropped datagram (a real link would not deliver it at all), so this costs the receiver slightly more
 * than true wire loss. Sending is untouched.
 */
final class LossyNetwork implements Network {
    private final Network inner;
    private final double loss;
    private final SplittableRandom random;
    private Inbound lastInbound;
    private Inbound lastFilter;
    private long dropped;

    LossyNetwork(final Network inner, final double loss, final long seed) {
        this.inner = inner;
        this.loss = loss;
        this.random = new SplittableRandom(seed);
    }

    @Override
    public void register(final Selector selector) throws IOException {
        inner.register(selector);
    }

    @Override
    public int receive(final Inbound inbound, final int budget) {
        return inner.receive(filter(inbound), budget);
    }

    /** The dropping wrapper of the loop's handler; cached, since the loop passes the same one every time. */
    private Inbound filter(final Inbound inbound) {
        if (inbound != lastInbound) {
            lastInbound = inbound;
            lastFilter = (source, sourcePort, ecn, buffer, offset, length) -> {
                if (random.nextDouble() < loss) {
                    dropped++;
                    return;
                }
                inbound.onPacket(source, sourcePort, ecn, buffer, offset, length);
            };
        }
        return lastFilter;
    }

    @Override
    public boolean seesReceivedEcn() {
        return inner.seesReceivedEcn();
    }

    @Override
    public boolean hasPending() {
        return inner.hasPending();
    }

    @Override
    public PacketTransmitter transmitter() {
        return inner.transmitter();
    }

    @Override
    public SocketPeers peers() {
        return inner.peers();
    }

    @Override
    public Map<String, Long> counters() {
        final Map<String, Long> counters = new LinkedHashMap<>(inner.counters());
        counters.put("injected_drops", dropped);
        return counters;
    }

    @Override
    public void close() {
        inner.close();
    }
}
