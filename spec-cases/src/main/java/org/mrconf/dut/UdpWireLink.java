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
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
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
import org.mrconf.pcap.net.EcnDatagramSocket;

/**
 * A wire link over the kernel's UDP sockets, on loopback or any local address: the usual way to reach a software
 * DUT or a NIC whose host routes to the tester. One socket per source port (entropy) the test uses, created on first
 * use and kept; the tester's MetaRoCE port has its own socket. What the DUT sends to any of them is received.
 *
 * <p>ECN: sent packets carry the codepoint through {@code IP_TOS} (IPv6: the traffic class), which Linux honours
 * for UDP. The JDK's socket API cannot show the ECN field of a received datagram, so on Linux every socket of the
 * link is an {@link EcnDatagramSocket} (JNA, {@code IP_RECVTOS} and {@code recvmsg}, the soft DUT's own receive
 * socket): received packets carry their real ECN field with {@link CapturedPacket#ecnObserved()} true, and the link
 * has {@link Capability#RECEIVE_ECN}, so the cases judging the DUT's ECT marks (clause 4.1.7) run over UDP. Where
 * the native socket cannot open (not Linux, not 64-bit, no JNA native library), the link falls back to
 * {@link DatagramChannel}s: it still works, received packets report {@link Ecn#NOT_ECT} with
 * {@code ecnObserved()} false, it lacks {@code RECEIVE_ECN}, and {@link #ecnUnseenReason()} says why; the ECN
 * cases are then not applicable on it. On an IPv4 loopback tester address the link can also send from another
 * loopback address (127.0.0.0/8 is all local).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class UdpWireLink implements WireLink {
    /** Receive buffer asked for on every socket, so bursts from the DUT are not dropped by the kernel. */
    static final int SOCKET_BUFFER_BYTES = 4 << 20;

    private static final int MAX_DATAGRAM = 65_536;
    private static final Duration SEND_STALL_LIMIT = Duration.ofSeconds(1);

    private final InetSocketAddress dut;
    private final InetAddress testerAddress;
    private final ProtocolFamily family;
    private final LongSupplier clock;
    /** Null on the fallback sockets; then {@link #selector} waits. */
    private final EcnDatagramSocket.Poller poller;

    private final Selector selector;
    private final Optional<String> ecnUnseen;
    private final Port testerSocket;
    private final int testerPort;
    private final Map<InetSocketAddress, Port> ports = new HashMap<>();
    /** The native sockets, in binding order, for the poller; replaced (copy on write) when one is added. */
    private volatile List<EcnDatagramSocket> nativeSockets = List.of();

    private final ArrayDeque<CapturedPacket> pending = new ArrayDeque<>();
    private final ByteBuffer receiveBuffer = ByteBuffer.allocate(MAX_DATAGRAM);
    private final Object receiveLock = new Object();
    private volatile boolean closed;

    /** With {@code withoutEcn} null the link tries the ECN-reading sockets; else it falls back, for that reason. */
    private UdpWireLink(InetSocketAddress dut, InetSocketAddress tester, LongSupplier clock, String withoutEcn)
            throws IOException {
        this.dut = dut;
        this.testerAddress = tester.getAddress();
        this.family =
                testerAddress instanceof Inet6Address ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET;
        this.clock = clock;
        this.selector = Selector.open();
        EcnDatagramSocket.Poller nativePoller = null;
        String unseen = null;
        try {
            if (withoutEcn != null) {
                unseen = withoutEcn;
            } else {
                nativePoller = EcnDatagramSocket.Poller.open().orElse(null);
                if (nativePoller == null) {
                    unseen = "the tester's UDP link cannot read the received ECN field on this platform (it needs"
                            + " Linux on 64 bits with JNA's native library: IP_RECVTOS and recvmsg)";
                }
            }
            this.poller = nativePoller;
            Port first = openPort(tester);
            if (first == null) {
                // IP_RECVTOS refused by the kernel: fall back for every socket of this link.
                if (nativePoller != null) {
                    nativePoller.close();
                }
                unseen = "the kernel refused IP_RECVTOS on the tester's UDP socket";
                throw new FallBack(unseen);
            }
            this.testerSocket = first;
        } catch (IOException | RuntimeException e) {
            if (nativePoller != null) {
                nativePoller.close();
            }
            selector.close();
            throw e;
        }
        this.ecnUnseen = Optional.ofNullable(unseen);
        this.testerPort = testerSocket.port();
    }

    /** The native socket could not open on a platform where it should: the link reopens on channels. */
    private static final class FallBack extends RuntimeException {
        private static final long serialVersionUID = 1L;

        FallBack(String reason) {
            super(reason, null, false, false);
        }
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
        return open(dut, tester, clock, true);
    }

    /**
     * As {@link #open(InetSocketAddress, InetSocketAddress, LongSupplier)}; with {@code seeEcn} false the link uses
     * the JDK's sockets, which cannot see the received ECN field (the fallback, for tests).
     */
    static UdpWireLink open(InetSocketAddress dut, InetSocketAddress tester, LongSupplier clock, boolean seeEcn)
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
        try {
            return new UdpWireLink(
                    dut,
                    tester,
                    clock,
                    seeEcn ? null : "the tester's UDP link was opened without its ECN-reading sockets");
        } catch (FallBack e) {
            return new UdpWireLink(dut, tester, clock, e.getMessage());
        }
    }

    /** A loopback link to a DUT on {@code 127.0.0.1:dutPort}, the tester on a free loopback port. */
    public static UdpWireLink loopback(int dutPort, LongSupplier clock) throws IOException {
        InetAddress lo = InetAddress.getLoopbackAddress();
        return open(new InetSocketAddress(lo, dutPort), new InetSocketAddress(lo, 0), clock);
    }

    /**
     * Why received packets carry no ECN field ({@link CapturedPacket#ecnObserved()} false), or empty when the link
     * sees it.
     */
    public Optional<String> ecnUnseenReason() {
        return ecnUnseen;
    }

    /** One bound UDP port of the link: a native socket that sees ECN, or a JDK channel that does not. */
    private interface Port extends AutoCloseable {
        int port();

        /** False while the send buffer is full. */
        boolean send(byte[] packet, InetSocketAddress to, int tos) throws IOException;

        @Override
        void close();
    }

    private static final class NativePort implements Port {
        final EcnDatagramSocket socket;

        NativePort(EcnDatagramSocket socket) {
            this.socket = socket;
        }

        @Override
        public int port() {
            return socket.port();
        }

        @Override
        public boolean send(byte[] packet, InetSocketAddress to, int tos) throws IOException {
            return socket.send(packet, 0, packet.length, to, tos);
        }

        @Override
        public void close() {
            socket.close();
        }
    }

    private static final class ChannelPort implements Port {
        final DatagramChannel channel;
        final int port;
        int tos = -1;

        ChannelPort(DatagramChannel channel) throws IOException {
            this.channel = channel;
            this.port = ((InetSocketAddress) channel.getLocalAddress()).getPort();
        }

        @Override
        public int port() {
            return port;
        }

        @Override
        public boolean send(byte[] packet, InetSocketAddress to, int codepoint) throws IOException {
            synchronized (this) {
                if (tos != codepoint) {
                    channel.setOption(StandardSocketOptions.IP_TOS, codepoint);
                    tos = codepoint;
                }
            }
            return channel.send(ByteBuffer.wrap(packet), to) != 0;
        }

        @Override
        public void close() {
            closeQuietly(channel);
        }
    }

    /** Binds {@code local}; null only when the native socket could not be made on a platform that has it. */
    private Port openPort(InetSocketAddress local) throws IOException {
        if (poller != null) {
            Optional<EcnDatagramSocket> socket;
            try {
                socket = EcnDatagramSocket.open(local, SOCKET_BUFFER_BYTES, SOCKET_BUFFER_BYTES, MAX_DATAGRAM);
            } catch (IOException e) {
                throw new IOException("cannot bind UDP " + local + ": " + e.getMessage(), e);
            }
            if (socket.isEmpty()) {
                return null;
            }
            NativePort port = new NativePort(socket.get());
            List<EcnDatagramSocket> all = new ArrayList<>(nativeSockets);
            all.add(socket.get());
            nativeSockets = List.copyOf(all);
            // A receive() in progress does not see the new socket until its poll returns.
            poller.wakeup();
            ports.put(new InetSocketAddress(local.getAddress(), port.port()), port);
            return port;
        }
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
        ChannelPort port = new ChannelPort(channel);
        ports.put((InetSocketAddress) channel.getLocalAddress(), port);
        return port;
    }

    private Port openOrFail(InetSocketAddress local) throws IOException {
        Port port = openPort(local);
        if (port == null) {
            throw new IOException(
                    "cannot open an ECN-reading UDP socket on " + local + " though the tester's port has one");
        }
        return port;
    }

    @Override
    public Set<Capability> capabilities() {
        EnumSet<Capability> capabilities = EnumSet.of(Capability.SEND_ECN);
        if (poller != null) {
            capabilities.add(Capability.RECEIVE_ECN);
        }
        if (testerAddress instanceof Inet4Address && testerAddress.isLoopbackAddress()) {
            capabilities.add(Capability.OTHER_SOURCE_ADDRESS);
        }
        return capabilities;
    }

    @Override
    public void send(byte[] packet, int sourcePort, Ecn ecn) throws IOException {
        sendFrom(testerAddress, packet, sourcePort, ecn);
    }

    @Override
    public void sendFrom(InetAddress sourceAddress, byte[] packet, int sourcePort, Ecn ecn) throws IOException {
        checkPort(sourcePort);
        Objects.requireNonNull(ecn, "ecn");
        Port port;
        synchronized (ports) {
            if (closed) {
                throw new ClosedChannelException();
            }
            InetSocketAddress local = new InetSocketAddress(sourceAddress, sourcePort);
            port = sourcePort == testerPort && sourceAddress.equals(testerAddress) ? testerSocket : ports.get(local);
            if (port == null) {
                port = openOrFail(local);
            }
        }
        long stallDeadlineNs = System.nanoTime() + SEND_STALL_LIMIT.toNanos();
        // A non-blocking UDP send fails only while the socket buffer is full: wait for it to drain.
        while (!port.send(packet, dut, ecn.codepoint())) {
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
        int[] bound = new int[count];
        synchronized (ports) {
            if (closed) {
                throw new ClosedChannelException();
            }
            for (int i = 0; i < count; i++) {
                bound[i] = openOrFail(new InetSocketAddress(testerAddress, 0)).port();
            }
        }
        return bound;
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
                    if (poller != null) {
                        // Read first: a datagram may have arrived on a socket bound since the last wait.
                        drainNative();
                        if (pending.isEmpty() && remainingNs > 0) {
                            int waitMs = (int) Math.min(
                                    Integer.MAX_VALUE, Math.max(1, TimeUnit.NANOSECONDS.toMillis(remainingNs)));
                            if (poller.await(nativeSockets, waitMs) > 0) {
                                drainNative();
                            }
                        }
                    } else {
                        if (remainingNs <= 0) {
                            selector.selectNow();
                        } else {
                            selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(remainingNs)));
                        }
                        drainSelected();
                    }
                } catch (ClosedSelectorException e) {
                    throw new ClosedChannelException();
                }
                if (closed) {
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

    private void drainNative() {
        for (EcnDatagramSocket socket : nativeSockets) {
            int localPort = socket.port();
            while (socket.receive(
                            (source, sourcePort, ecn, buffer, length) -> {
                                long nowNs = clock.getAsLong();
                                byte[] bytes = new byte[length];
                                buffer.get(0, bytes, 0, length);
                                pending.add(new CapturedPacket(
                                        bytes,
                                        source,
                                        sourcePort,
                                        localPort,
                                        Ecn.fromCodepoint(ecn),
                                        true,
                                        nowNs,
                                        Optional.empty()));
                            },
                            64)
                    == 64) {
                // Read until the socket is empty.
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
        synchronized (ports) {
            Set<Integer> bound = new TreeSet<>();
            ports.keySet().forEach(a -> bound.add(a.getPort()));
            return bound;
        }
    }

    @Override
    public void close() {
        synchronized (ports) {
            if (closed) {
                return;
            }
            closed = true;
            if (poller != null) {
                poller.wakeup();
            }
        }
        if (poller == null) {
            synchronized (ports) {
                ports.values().forEach(Port::close);
                ports.clear();
            }
            closeQuietly(selector);
            return;
        }
        // A receive() under way leaves its wait now; then nothing reads the native sockets any more, and their
        // descriptors can be closed without a reader using a number the kernel has given to another file.
        synchronized (receiveLock) {
            synchronized (ports) {
                for (Port port : ports.values()) {
                    port.close();
                }
                ports.clear();
                nativeSockets = List.of();
            }
            poller.close();
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
        return "UdpWireLink[tester=" + testerAddress.getHostAddress() + ":" + testerPort + ", dut=" + dut
                + (poller != null ? ", sees ECN" : ", ECN unseen") + "]";
    }
}
