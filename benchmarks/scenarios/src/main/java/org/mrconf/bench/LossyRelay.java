package org.mrconf.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A UDP relay on loopback that forwards every datagram it receives to one destination, dropping a seeded
 * share of them: the lossy link between the legitimate peer and the DUT in the soak benchmark.
 */
final class LossyRelay implements AutoCloseable {
    private final DatagramChannel channel;
    private final InetSocketAddress destination;
    private final double loss;
    private final SplittableRandom random;
    private final Thread thread;
    private final AtomicLong forwarded = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private volatile boolean running = true;

    LossyRelay(final InetSocketAddress destination, final double loss, final long seed) throws IOException {
        this.channel = DatagramChannel.open().bind(new InetSocketAddress(destination.getAddress(), 0));
        this.destination = destination;
        this.loss = loss;
        this.random = new SplittableRandom(seed);
        this.thread = new Thread(this::run, "soak-relay-" + port());
        this.thread.setDaemon(true);
        this.thread.start();
    }

    int port() {
        return ((InetSocketAddress) channel.socket().getLocalSocketAddress()).getPort();
    }

    long forwarded() {
        return forwarded.get();
    }

    long dropped() {
        return dropped.get();
    }

    private void run() {
        final ByteBuffer buffer = ByteBuffer.allocateDirect(65536);
        while (running) {
            try {
                buffer.clear();
                if (channel.receive(buffer) == null) {
                    continue;
                }
                if (random.nextDouble() < loss) {
                    dropped.incrementAndGet();
                    continue;
                }
                buffer.flip();
                channel.send(buffer, destination);
                forwarded.incrementAndGet();
            } catch (final IOException e) {
                if (running) {
                    dropped.incrementAndGet();
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        running = false;
        channel.close();
    }
}
