package org.mrconf.pcap.net;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.Selector;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import org.apiguardian.api.API;

/**
 * A UDP socket on Linux, opened through JNA, that sees the ECN field of every datagram it receives: the JDK's
 * {@code DatagramChannel} cannot read the received TOS, so this socket is a native one with {@code IP_RECVTOS}
 * (IPv6: {@code IPV6_RECVTCLASS}) set, read with {@code recvmsg}, and the {@code IP_TOS} (IPv6:
 * {@code IPV6_TCLASS}) control message gives the ECN bits. It sends too, with the TOS byte (IPv6: traffic class)
 * the caller asks for, so one port both sends and receives.
 *
 * <p>Both ends use it: the soft DUT for its MetaRoCE port (clause 8.2.5: it must see CE marks), and the tester's UDP
 * link for every port it binds (clause 4.1.7: the tester judges the DUT's ECT marks). It lives in the capture
 * module because that module already carries JNA and both ends may depend on it.
 *
 * <p>A native socket cannot join a Java {@link Selector}. Two ways to wait are offered: {@link #wakeOnReadable}
 * starts a small poller thread that wakes a selector when a datagram waits (the soft DUT's event loop), and
 * {@link Poller} waits in {@code poll(2)} on several sockets at once, woken early by {@link Poller#wakeup()} (the
 * tester's link). Reading never blocks: {@link #receive} reads with {@code MSG_DONTWAIT} until the socket is empty.
 * Reading allocates nothing except the source address when it changes.
 *
 * <p>{@link #open} returns empty where this cannot work (not Linux, not 64-bit, no JNA native library, the kernel
 * refused {@code IP_RECVTOS}): the caller falls back to a {@code DatagramChannel} that cannot see ECN, and says so.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class EcnDatagramSocket implements AutoCloseable {
    /** One received datagram, handed to the caller while its bytes are valid (only during the call). */
    @FunctionalInterface
    public interface Handler {
        /**
         * @param source     the IP source address
         * @param sourcePort the UDP source port
         * @param ecn        the ECN field (0 Not-ECT, 1 ECT(1), 2 ECT(0), 3 CE)
         * @param buffer     the datagram, from index 0
         * @param length     its length in bytes
         */
        void onDatagram(InetAddress source, int sourcePort, int ecn, ByteBuffer buffer, int length);
    }

    // Linux values (the generic ABI; x86_64 and aarch64 agree).
    private static final int AF_INET = 2;
    private static final int AF_INET6 = 10;
    private static final int SOCK_DGRAM = 2;
    private static final int SOCK_NONBLOCK = 0x800;
    private static final int SOCK_CLOEXEC = 0x80000;
    private static final int SOL_SOCKET = 1;
    private static final int SO_SNDBUF = 7;
    private static final int SO_RCVBUF = 8;
    private static final int IPPROTO_IP = 0;
    private static final int IP_TOS = 1;
    private static final int IP_RECVTOS = 13;
    private static final int IPPROTO_IPV6 = 41;
    private static final int IPV6_V6ONLY = 26;
    private static final int IPV6_RECVTCLASS = 66;
    private static final int IPV6_TCLASS = 67;
    private static final int MSG_DONTWAIT = 0x40;
    private static final int EAGAIN = 11;
    private static final int ENOBUFS = 105;
    private static final int EINTR = 4;
    private static final short POLLIN = 1;
    private static final int POLL_TIMEOUT_MS = 100;
    private static final int EFD_NONBLOCK = 0x800;
    private static final int EFD_CLOEXEC = 0x80000;

    // struct msghdr and struct iovec on LP64 Linux.
    private static final int MSGHDR_BYTES = 56;
    private static final int MSG_NAME = 0;
    private static final int MSG_NAMELEN = 8;
    private static final int MSG_IOV = 16;
    private static final int MSG_IOVLEN = 24;
    private static final int MSG_CONTROL = 32;
    private static final int MSG_CONTROLLEN = 40;
    private static final int MSG_FLAGS = 48;
    private static final int NAME_BYTES = 28; // sockaddr_in6, the larger
    private static final int CONTROL_BYTES = 64;
    private static final int CMSG_HEADER_BYTES = 16; // size_t len, int level, int type

    /** The C library, directly mapped: no reflection and no argument arrays per call. */
    private static final class LibC {
        static native int socket(int domain, int type, int protocol);

        static native int setsockopt(int fd, int level, int name, Pointer value, int length);

        static native int bind(int fd, Pointer address, int length);

        static native int getsockname(int fd, Pointer address, Pointer length);

        static native long recvmsg(int fd, Pointer message, int flags);

        static native long sendto(int fd, Pointer buffer, long length, int flags, Pointer address, int addressLength)
                throws LastErrorException;

        static native int poll(Pointer fds, long count, int timeoutMs);

        static native int eventfd(int initial, int flags);

        static native long write(int fd, Pointer buffer, long count);

        static native long read(int fd, Pointer buffer, long count);

        static native int close(int fd);

        static {
            Native.register(Platform.C_LIBRARY_NAME);
        }
    }

    private final int fd;
    private final boolean ipv6;
    private final InetAddress address;
    private final int port;
    private final ByteBuffer buffer;
    private final Memory message = new Memory(MSGHDR_BYTES);
    private final Memory name = new Memory(NAME_BYTES);
    private final Memory control = new Memory(CONTROL_BYTES);
    private final Memory iov = new Memory(16);
    private final byte[] sourceBytes;
    private final byte[] lastSourceBytes;
    private final Object sendLock = new Object();
    private final Memory sendAddress = new Memory(NAME_BYTES);
    private final Memory tosValue = new Memory(4);
    private ByteBuffer sendBuffer;
    private int lastTos = -1;
    private InetAddress lastSource;
    private volatile boolean readable;
    private volatile boolean closed;
    private Thread poller;

    private EcnDatagramSocket(
            final int fd, final boolean ipv6, final InetAddress address, final int port, final int maxDatagram) {
        this.fd = fd;
        this.ipv6 = ipv6;
        this.address = address;
        this.port = port;
        this.buffer = ByteBuffer.allocateDirect(maxDatagram);
        this.sourceBytes = new byte[ipv6 ? 16 : 4];
        this.lastSourceBytes = new byte[sourceBytes.length];
        iov.setPointer(0, Native.getDirectBufferPointer(buffer));
        iov.setLong(8, maxDatagram);
        message.clear();
        message.setPointer(MSG_NAME, name);
        message.setPointer(MSG_IOV, iov);
        message.setLong(MSG_IOVLEN, 1);
        message.setPointer(MSG_CONTROL, control);
    }

    /** Whether native sockets can be opened here at all (Linux, 64-bit); {@link #open} may still return empty. */
    public static boolean platformSupported() {
        return Platform.isLinux() && Native.POINTER_SIZE == 8;
    }

    /**
     * Opens and binds the socket, or returns empty where the native socket is not available (the caller falls
     * back to a socket that cannot see ECN).
     *
     * @param local              the address and port to bind; port 0 lets the operating system pick one
     * @param receiveBufferBytes {@code SO_RCVBUF} asked for (best effort, as with {@code DatagramChannel})
     * @param sendBufferBytes    {@code SO_SNDBUF} asked for (best effort); 0 keeps the system's default
     * @param maxDatagram        the largest datagram read whole
     * @throws IOException if the native socket exists but cannot be bound (the port is taken): the same failure a
     *                     {@code DatagramChannel} would report
     */
    public static Optional<EcnDatagramSocket> open(
            final InetSocketAddress local,
            final int receiveBufferBytes,
            final int sendBufferBytes,
            final int maxDatagram)
            throws IOException {
        Objects.requireNonNull(local, "local");
        if (local.isUnresolved()) {
            throw new IllegalArgumentException("unresolved address: " + local);
        }
        if (!platformSupported()) {
            return Optional.empty();
        }
        final InetAddress bindAddress = local.getAddress();
        final boolean ipv6 = bindAddress instanceof Inet6Address;
        final int fd;
        try {
            fd = LibC.socket(ipv6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        } catch (final LinkageError e) {
            return Optional.empty(); // no JNA native library for this platform
        }
        if (fd < 0) {
            return Optional.empty();
        }
        try (Memory value = new Memory(4);
                Memory address = new Memory(NAME_BYTES);
                Memory length = new Memory(4)) {
            value.setInt(0, receiveBufferBytes);
            LibC.setsockopt(fd, SOL_SOCKET, SO_RCVBUF, value, 4);
            if (sendBufferBytes > 0) {
                value.setInt(0, sendBufferBytes);
                LibC.setsockopt(fd, SOL_SOCKET, SO_SNDBUF, value, 4);
            }
            value.setInt(0, 1);
            final boolean ecnVisible = ipv6
                    ? LibC.setsockopt(fd, IPPROTO_IPV6, IPV6_RECVTCLASS, value, 4) == 0
                    : LibC.setsockopt(fd, IPPROTO_IP, IP_RECVTOS, value, 4) == 0;
            if (!ecnVisible) {
                LibC.close(fd);
                return Optional.empty();
            }
            if (ipv6) {
                LibC.setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, value, 4);
            }
            final int addressLength = writeSockaddr(address, bindAddress, local.getPort());
            if (LibC.bind(fd, address, addressLength) != 0) {
                LibC.close(fd);
                throw new IOException("cannot bind UDP " + bindAddress.getHostAddress() + ":" + local.getPort()
                        + " (address in use or not local)");
            }
            length.setInt(0, NAME_BYTES);
            if (LibC.getsockname(fd, address, length) != 0) {
                LibC.close(fd);
                throw new IOException("cannot read the bound UDP port");
            }
            final int boundPort = ((address.getByte(2) & 0xFF) << 8) | (address.getByte(3) & 0xFF);
            return Optional.of(new EcnDatagramSocket(fd, ipv6, bindAddress, boundPort, maxDatagram));
        }
    }

    private static int writeSockaddr(final Memory address, final InetAddress ip, final int udpPort) {
        address.clear();
        final byte[] bytes = ip.getAddress();
        final boolean ipv6 = ip instanceof Inet6Address;
        address.setShort(0, (short) (ipv6 ? AF_INET6 : AF_INET)); // host order
        address.setByte(2, (byte) (udpPort >>> 8)); // network order
        address.setByte(3, (byte) udpPort);
        if (ipv6) {
            address.write(8, bytes, 0, 16);
            return 28;
        }
        address.write(4, bytes, 0, 4);
        return 16;
    }

    /** The bound UDP port. */
    public int port() {
        return port;
    }

    /** The bound address, as given to {@link #open}. */
    public InetAddress address() {
        return address;
    }

    /** The bound address and port. */
    public InetSocketAddress localAddress() {
        return new InetSocketAddress(address, port);
    }

    /** Whether this is an IPv4 or an IPv6 socket (for the family check of peers). */
    public Class<? extends InetAddress> family() {
        return ipv6 ? Inet6Address.class : Inet4Address.class;
    }

    /**
     * Starts a poller thread that wakes {@code selector} whenever a datagram waits; once. {@link #isReadable()} then
     * says whether one waits, and {@link #receive} reading the socket empty lets the poller watch again.
     */
    public void wakeOnReadable(final Selector selector, final String threadName) {
        Objects.requireNonNull(selector, "selector");
        synchronized (this) {
            if (poller != null) {
                throw new IllegalStateException("already registered");
            }
            final Thread thread = new Thread(() -> pollLoop(selector), threadName);
            thread.setDaemon(true);
            poller = thread;
            thread.start();
        }
    }

    /** Whether the poller of {@link #wakeOnReadable} saw a datagram that {@link #receive} has not read yet. */
    public boolean isReadable() {
        return readable;
    }

    /**
     * Hands up to {@code budget} waiting datagrams to {@code handler}, never blocking; returns how many. One reader
     * thread at a time.
     *
     * @return the number handed (0 when none waits or the socket is closed)
     */
    public int receive(final Handler handler, final int budget) {
        int received = 0;
        while (received < budget && !closed) {
            message.setInt(MSG_NAMELEN, NAME_BYTES);
            message.setLong(MSG_CONTROLLEN, CONTROL_BYTES);
            message.setInt(MSG_FLAGS, 0);
            final long length = LibC.recvmsg(fd, message, MSG_DONTWAIT);
            if (length < 0) {
                // Empty (EAGAIN) or an error: either way nothing more now; let the poller watch again.
                readable = false;
                final Thread thread = poller;
                if (thread != null) {
                    LockSupport.unpark(thread);
                }
                return received;
            }
            received++;
            final InetAddress source = source();
            final int sourcePort = ((name.getByte(2) & 0xFF) << 8) | (name.getByte(3) & 0xFF);
            buffer.clear();
            handler.onDatagram(source, sourcePort, receivedEcn(), buffer, (int) length);
        }
        return received;
    }

    /**
     * Sends {@code length} bytes of {@code data} from {@code offset} to {@code destination} with the TOS byte (IPv6:
     * the traffic class) {@code tos}, set on the socket only when it changes. Never blocks. Thread-safe.
     *
     * @return false if the socket's send buffer is full (try again later), true once sent
     * @throws IOException if the socket is closed or the kernel refused the datagram
     */
    public boolean send(
            final byte[] data, final int offset, final int length, final InetSocketAddress destination, final int tos)
            throws IOException {
        Objects.checkFromIndexSize(offset, length, data.length);
        if ((destination.getAddress() instanceof Inet6Address) != ipv6) {
            throw new IOException("cannot send to " + destination + " from an " + (ipv6 ? "IPv6" : "IPv4") + " socket");
        }
        synchronized (sendLock) {
            if (closed) {
                throw new ClosedChannelException();
            }
            if (tos != lastTos) {
                tosValue.setInt(0, tos);
                final int rc = ipv6
                        ? LibC.setsockopt(fd, IPPROTO_IPV6, IPV6_TCLASS, tosValue, 4)
                        : LibC.setsockopt(fd, IPPROTO_IP, IP_TOS, tosValue, 4);
                if (rc != 0) {
                    throw new IOException("cannot set " + (ipv6 ? "IPV6_TCLASS" : "IP_TOS") + " to " + tos);
                }
                lastTos = tos;
            }
            if (sendBuffer == null || sendBuffer.capacity() < length) {
                sendBuffer = ByteBuffer.allocateDirect(Math.max(length, 2048));
            }
            sendBuffer.clear();
            sendBuffer.put(data, offset, length);
            final int addressLength = writeSockaddr(sendAddress, destination.getAddress(), destination.getPort());
            while (true) {
                try {
                    LibC.sendto(
                            fd,
                            Native.getDirectBufferPointer(sendBuffer),
                            length,
                            MSG_DONTWAIT,
                            sendAddress,
                            addressLength);
                    return true;
                } catch (final LastErrorException e) {
                    if (e.getErrorCode() == EINTR) {
                        continue;
                    }
                    if (e.getErrorCode() == EAGAIN || e.getErrorCode() == ENOBUFS) {
                        return false;
                    }
                    throw new IOException("UDP send to " + destination + " failed: errno " + e.getErrorCode(), e);
                }
            }
        }
    }

    /** The ECN bits of the datagram just read, from its IP_TOS or IPV6_TCLASS control message. */
    private int receivedEcn() {
        final long controlLength = message.getLong(MSG_CONTROLLEN);
        long offset = 0;
        while (offset + CMSG_HEADER_BYTES <= controlLength) {
            final long cmsgLength = control.getLong(offset);
            if (cmsgLength < CMSG_HEADER_BYTES || offset + cmsgLength > controlLength) {
                return 0;
            }
            final int level = control.getInt(offset + 8);
            final int type = control.getInt(offset + 12);
            if (level == IPPROTO_IP && type == IP_TOS) {
                return control.getByte(offset + CMSG_HEADER_BYTES) & 3;
            }
            if (level == IPPROTO_IPV6 && type == IPV6_TCLASS) {
                return control.getInt(offset + CMSG_HEADER_BYTES) & 3;
            }
            offset += (cmsgLength + 7) & ~7L;
        }
        return 0; // no control message: Not-ECT
    }

    /** The datagram's source address, reusing the previous one when it is the same peer. */
    private InetAddress source() {
        name.read(ipv6 ? 8 : 4, sourceBytes, 0, sourceBytes.length);
        if (lastSource == null || !Arrays.equals(sourceBytes, lastSourceBytes)) {
            System.arraycopy(sourceBytes, 0, lastSourceBytes, 0, sourceBytes.length);
            try {
                lastSource = InetAddress.getByAddress(sourceBytes.clone());
            } catch (final UnknownHostException e) {
                throw new IllegalStateException("a 4- or 16-byte address is always valid", e);
            }
        }
        return lastSource;
    }

    private void pollLoop(final Selector selector) {
        try (Memory pollFd = new Memory(8)) {
            pollFd.setInt(0, fd);
            pollFd.setShort(4, POLLIN);
            while (!closed) {
                if (readable) {
                    LockSupport.parkNanos(this, 10_000_000L); // the loop unparks once it has read everything
                    continue;
                }
                pollFd.setShort(6, (short) 0);
                final int ready = LibC.poll(pollFd, 1, POLL_TIMEOUT_MS);
                if (ready > 0 && (pollFd.getShort(6) & POLLIN) != 0 && !closed) {
                    readable = true;
                    selector.wakeup();
                }
            }
        }
    }

    @Override
    public void close() {
        synchronized (sendLock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        final Thread thread = poller;
        if (thread != null) {
            LockSupport.unpark(thread);
            try {
                thread.join(POLL_TIMEOUT_MS * 3L);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        LibC.close(fd);
    }

    @Override
    public String toString() {
        return "EcnDatagramSocket[" + address.getHostAddress() + ":" + port + (closed ? ", closed" : "") + "]";
    }

    /**
     * Waits in {@code poll(2)} until one of several sockets has a datagram, the timeout passes or another thread
     * calls {@link #wakeup()} (an {@code eventfd}). One waiting thread at a time.
     */
    public static final class Poller implements AutoCloseable {
        private final int wakeFd;
        private final Memory counter = new Memory(8);
        private Memory pollFds = new Memory(8 * 8);
        private volatile boolean closed;

        private Poller(final int wakeFd) {
            this.wakeFd = wakeFd;
        }

        /** Opens a poller, or returns empty where native sockets are not available. */
        public static Optional<Poller> open() {
            if (!platformSupported()) {
                return Optional.empty();
            }
            final int fd;
            try {
                fd = LibC.eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
            } catch (final LinkageError e) {
                return Optional.empty();
            }
            return fd < 0 ? Optional.empty() : Optional.of(new Poller(fd));
        }

        /**
         * Waits up to {@code timeoutMs} (0: just looks) until one of {@code sockets} is readable or {@link #wakeup()}
         * is called; returns how many sockets are readable (0 after a timeout or a wakeup).
         */
        public int await(final List<EcnDatagramSocket> sockets, final int timeoutMs) {
            if (closed) {
                return 0;
            }
            final int count = sockets.size() + 1;
            if (pollFds.size() < count * 8L) {
                pollFds = new Memory(count * 16L);
            }
            for (int i = 0; i < sockets.size(); i++) {
                pollFds.setInt(i * 8L, sockets.get(i).fd);
                pollFds.setShort(i * 8L + 4, POLLIN);
                pollFds.setShort(i * 8L + 6, (short) 0);
            }
            final long wake = sockets.size() * 8L;
            pollFds.setInt(wake, wakeFd);
            pollFds.setShort(wake + 4, POLLIN);
            pollFds.setShort(wake + 6, (short) 0);
            final int ready = LibC.poll(pollFds, count, Math.max(0, timeoutMs));
            if (ready <= 0) {
                return 0;
            }
            if ((pollFds.getShort(wake + 6) & POLLIN) != 0) {
                LibC.read(wakeFd, counter, 8); // clears the eventfd
            }
            int readable = 0;
            for (int i = 0; i < sockets.size(); i++) {
                if ((pollFds.getShort(i * 8L + 6) & POLLIN) != 0) {
                    readable++;
                }
            }
            return readable;
        }

        /** Ends a wait in {@link #await} now (or the next one, if none is under way). Any thread. */
        public void wakeup() {
            if (closed) {
                return;
            }
            try (Memory one = new Memory(8)) {
                one.setLong(0, 1);
                LibC.write(wakeFd, one, 8);
            }
        }

        @Override
        public synchronized void close() {
            if (!closed) {
                closed = true;
                LibC.close(wakeFd);
            }
        }
    }
}
