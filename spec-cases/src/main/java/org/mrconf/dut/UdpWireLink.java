package org.mrconf.dut;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ProtocolFamily;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.apiguardian.api.API;
import org.mrconf.pcap.Ecn;

/**
 * A wire link over the kernel's UDP sockets, on loopback or any local address: the usual way to reach a software
 * DUT or a NIC whose host routes to the tester. One {@link DatagramChannel} per source port (entropy) the test
 * uses, created on first use and kept; the tester's MetaRoCE port has its own channel. What the DUT sends to any of
 * them is received.
 *
 * <p>ECN: sent packets carry the codepoint through {@code IP_TOS} (IPv6: the traffic class), which Linux honours
 * for UDP. The received ECN field is not visible through the JDK's socket API, so received packets report
 * {@link Ecn#NOT_ECT} with {@link CapturedPacket#ecnObserved()} false, and the link lacks
 * {@link Capability#RECEIVE_ECN}: tests of the DUT's ECN marking need {@link RawEthernetWireLink}. On an IPv4
 * loopback tester address the link can also send from another loopback address (127.0.0.0/8 is all local).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class UdpWireLink implements WireLink {
    /** Receive buffer asked for on every channel, so bursts from the DUT are not dropped by the kernel. */
    static final int SOCKET_BUFFER_BYTES = 4 << 20;

    private static final Duration SEND_STALL_LIMIT = Duration.ofSeconds(1);

    private final InetSocketAddress dut;
    private final InetAddress testerAddress;
    private final ProtocolFamily family;
    private final LongSupplier clock;
    private final Selector selector;
    private final DatagramChannel testerChannel;
    private final int testerPort;
    private final Map<InetSocketAddress, DatagramChannel> channels = new HashMap<>();
    private final Map<DatagramChannel, Integer> tos = new HashMap<>();
    private final ArrayDeque<CapturedPacket> pending = new ArrayDeque<>();
    private final ByteBuffer receiveBuffer = ByteBuffer.allocate(65_536);
    private final Object receiveLock = new Object();
    private volatile boolean closed;

    private UdpWireLink(InetSocketAddress dut, InetSocketAddress tester, LongSupplier clock) throws IOException {
        this.dut = dut;
        this.testerAddress = tester.getAddress();
        this.family =
                testerAddress instanceof Inet6Address ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET;
        this.clock = clock;
        this.selector = Selector.open();
        try {
            this.testerChannel = openChannel(tester);
        } catch (IOException e) {
            selector.close();
            throw e;
        }
        this.testerPort = ((InetSocketAddress) testerChannel.getLocalAddress()).getPort();
    }

    /**
     * Opens the link and binds the tester's MetaRoCE port.
     *
     * @param dut    the DUT's MetaRoCE address and port
     * @param tester the local address and port the DUT sends to; port 0 picks a free one
     * @param clock  nanoseconds, stamping received packets, e.g. {@code System::nanoTime}
     */
    public static UdpWireLink open(InetSocketAddress dut, InetSocketAddress tester, LongSupplier clock)
            throws IOException {
        Objects.requireNonNull(dut, "dut");
        Objects.requireNonNull(tester, "tester");
        Objects.requireNonNull(clock, "clock");
        if (dut.isUnresolved() || tester.isUnresolved()) {
            throw new IllegalArgumentException("addresses must be resolved: " + dut + ", " + tester);
        }
        if ((dut.getAddress() instanceof Inet6Address) != (tester.getAddress() instanceof Inet6Address)) {
            throw new IllegalArgumentException(
                    "the DUT and the tester must be the same IP family: " + dut + ", " + tester);
        }
        return new UdpWireLink(dut, tester, clock);
    }

    /** A loopback link to a DUT on {@code 127.0.0.1:dutPort}, the tester on a free loopback port. */
    public static UdpWireLink loopback(int dutPort, LongSupplier clock) throws IOException {
        InetAddress lo = InetAddress.getLoopbackAddress();
        return open(new InetSocketAddress(lo, dutPort), new InetSocketAddress(lo, 0), clock);
    }

    private DatagramChannel openChannel(InetSocketAddress local) throws IOException {
        DatagramChannel channel = DatagramChannel.open(family);
        try {
            channel.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_BYTES);
            channel.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER_BYTES);
            channel.bind(local);
            channel.configureBlocking(false);
            channel.register(selector, SelectionKey.OP_READ);
        } catch (IOException e) {
            channel.close();
            throw new IOException("cannot bind UDP " + local + ": " + e.getMessage(), e);
        }
        // A receive() in progress does not see the new channel until its select returns.
        selector.wakeup();
        channels.put((InetSocketAddress) channel.getLocalAddress(), channel);
        return channel;
    }

    @Override
    public Set<Capability> capabilities() {
        return testerAddress instanceof Inet4Address && testerAddress.isLoopbackAddress()
                ? EnumSet.of(Capability.SEND_ECN, Capability.OTHER_SOURCE_ADDRESS)
                : EnumSet.of(Capability.SEND_ECN);
    }

    @Override
    public void send(byte[] packet, int sourcePort, Ecn ecn) throws IOException {
        sendFrom(testerAddress, packet, sourcePort, ecn);
    }

    @Override
    public void sendFrom(InetAddress sourceAddress, byte[] packet, int sourcePort, Ecn ecn) throws IOException {
        checkPort(sourcePort);
        Objects.requireNonNull(ecn, "ecn");
        DatagramChannel channel;
        synchronized (channels) {
            if (closed) {
                throw new ClosedChannelException();
            }
            InetSocketAddress local = new InetSocketAddress(sourceAddress, sourcePort);
            channel = sourcePort == testerPort && sourceAddress.equals(testerAddress)
                    ? testerChannel
                    : channels.get(local);
            if (channel == null) {
                channel = openChannel(local);
            }
            Integer current = tos.get(channel);
            if (current == null || current != ecn.codepoint()) {
                channel.setOption(StandardSocketOptions.IP_TOS, ecn.codepoint());
                tos.put(channel, ecn.codepoint());
            }
        }
        ByteBuffer buffer = ByteBuffer.wrap(packet);
        long stallDeadlineNs = System.nanoTime() + SEND_STALL_LIMIT.toNanos();
        // A non-blocking UDP send returns 0 only while the socket buffer is full: wait for it to drain.
        while (channel.send(buffer, dut) == 0) {
            if (System.nanoTime() - stallDeadlineNs > 0) {
                throw new IOException("UDP send to " + dut + " stalled for " + SEND_STALL_LIMIT.toMillis() + " ms");
            }
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(50));
        }
    }

    /**
     * Binds {@code count} new sockets on the tester's address, each on a port the operating system picks, and keeps
     * them: {@link #send(byte[], int, Ecn)} from one of these ports uses its socket, and what the DUT sends to it is
     * received.
     */
    @Override
    public int[] sourcePorts(int count) throws IOException {
        int[] ports = new int[count];
        synchronized (channels) {
            if (closed) {
                throw new ClosedChannelException();
            }
            for (int i = 0; i < count; i++) {
                DatagramChannel channel = openChannel(new InetSocketAddress(testerAddress, 0));
                ports[i] = ((InetSocketAddress) channel.getLocalAddress()).getPort();
            }
        }
        return ports;
    }

    /** On an IPv4 loopback tester address, the next loopback address. */
    @Override
    public Optional<InetAddress> alternateSourceAddress() {
        return can(Capability.OTHER_SOURCE_ADDRESS)
                ? Optional.of(neighbourAddress(testerAddress, dut.getAddress()))
                : Optional.empty();
    }

    @Override
    public Optional<CapturedPacket> receive(Duration timeout) throws IOException {
        long deadlineNs = System.nanoTime() + Math.max(0, timeout.toNanos());
        synchronized (receiveLock) {
            while (true) {
                if (closed) {
                    throw new ClosedChannelException();
                }
                CapturedPacket next = pending.poll();
                if (next != null) {
                    return Optional.of(next);
                }
                long remainingNs = deadlineNs - System.nanoTime();
                try {
                    if (remainingNs <= 0) {
                        selector.selectNow();
                    } else {
                        selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(remainingNs)));
                    }
                    drainSelected();
                } catch (ClosedSelectorException e) {
                    throw new ClosedChannelException();
                }
                if (pending.isEmpty() && deadlineNs - System.nanoTime() <= 0) {
                    return Optional.empty();
                }
                if (Thread.currentThread().isInterrupted()) {
                    return Optional.ofNullable(pending.poll());
                }
            }
        }
    }

    private void drainSelected() throws IOException {
        Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
            SelectionKey key = keys.next();
            keys.remove();
            DatagramChannel channel = (DatagramChannel) key.channel();
            int localPort = ((InetSocketAddress) channel.getLocalAddress()).getPort();
            while (true) {
                receiveBuffer.clear();
                SocketAddress from = channel.receive(receiveBuffer);
                if (from == null) {
                    break;
                }
                long nowNs = clock.getAsLong();
                receiveBuffer.flip();
                byte[] bytes = new byte[receiveBuffer.remaining()];
                receiveBuffer.get(bytes);
                InetSocketAddress source = (InetSocketAddress) from;
                pending.add(new CapturedPacket(
                        bytes,
                        source.getAddress(),
                        source.getPort(),
                        localPort,
                        Ecn.NOT_ECT,
                        false,
                        nowNs,
                        Optional.empty()));
            }
        }
    }

    @Override
    public InetAddress testerAddress() {
        return testerAddress;
    }

    @Override
    public int testerPort() {
        return testerPort;
    }

    @Override
    public InetSocketAddress dutAddress() {
        return dut;
    }

    @Override
    public long nowNs() {
        return clock.getAsLong();
    }

    /** The local ports the link has bound so far, the tester's included. */
    public Set<Integer> boundPorts() {
        synchronized (channels) {
            Set<Integer> ports = new TreeSet<>();
            channels.keySet().forEach(a -> ports.add(a.getPort()));
            return ports;
        }
    }

    @Override
    public void close() {
        synchronized (channels) {
            if (closed) {
                return;
            }
            closed = true;
            for (DatagramChannel channel : channels.values()) {
                closeQuietly(channel);
            }
            channels.clear();
        }
        closeQuietly(selector);
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // Closing the link must not fail a test's cleanup.
        }
    }

    static void checkPort(int port) {
        if (port < 1 || port > 0xFFFF) {
            throw new IllegalArgumentException("UDP source port must be 1 to 65535: " + port);
        }
    }

    /**
     * A neighbour of {@code address} in its last byte (+1, +2, -1, -2, never .0 or .255) that is not {@code avoid}:
     * the spare source address of links that can send from one.
     */
    static InetAddress neighbourAddress(InetAddress address, InetAddress avoid) {
        byte[] bytes = address.getAddress();
        int last = bytes[bytes.length - 1] & 0xFF;
        for (int step : new int[] {1, 2, -1, -2}) {
            int candidate = last + step;
            if (candidate < 1 || candidate > 254) {
                continue;
            }
            bytes[bytes.length - 1] = (byte) candidate;
            try {
                InetAddress neighbour = InetAddress.getByAddress(bytes);
                if (!neighbour.equals(avoid)) {
                    return neighbour;
                }
            } catch (UnknownHostException e) {
                throw new AssertionError("4 or 16 bytes are an address", e);
            }
        }
        throw new AssertionError("two of four neighbours differ from one address");
    }

    @Override
    public String toString() {
        return "UdpWireLink[tester=" + testerAddress.getHostAddress() + ":" + testerPort + ", dut=" + dut + "]";
    }
}
