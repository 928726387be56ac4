package org.mrconf.softdut;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * The soft DUT's MetaRoCE receive socket on Linux, opened through JNA so that the ECN field of every received
 * datagram is visible (spec clause 8.2.5): the JDK's {@code DatagramChannel} cannot read the received TOS, so the
 * socket is a native one with {@code IP_RECVTOS} (IPv6: {@code IPV6_RECVTCLASS}) set, read with {@code recvmsg},
 * and the {@code IP_TOS} (IPv6: {@code IPV6_TCLASS}) control message gives the ECN bits.
 *
 * <p>A native socket cannot join a Java {@link Selector}, so a small poller thread waits in {@code poll(2)} and
 * wakes the loop's selector when a datagram is waiting; the loop reads with {@code MSG_DONTWAIT} until the socket
 * is empty, then lets the poller wait again. Reading allocates nothing except the source address when it changes.
 *
 * <p>{@link #open} returns null where this cannot work (not Linux, not 64-bit, no JNA, the kernel refused): the
 * soft DUT then falls back to a {@code DatagramChannel} that cannot see ECN, and stops claiming the congestion
 * profile.
 */
final class EcnReceiveSocket implements AutoCloseable {
    /** One received datagram, handed to the caller while its bytes are valid. */
    @FunctionalInterface
    interface Handler {
        void onDatagram(InetAddress source, int sourcePort, int ecn, ByteBuffer buffer, int length);
    }

    // Linux values (the generic ABI; x86_64 and aarch64 agree).
    private static final int AF_INET = 2;
    private static final int AF_INET6 = 10;
    private static final int SOCK_DGRAM = 2;
    private static final int SOCK_NONBLOCK = 0x800;
    private static final int SOCK_CLOEXEC = 0x80000;
    private static final int SOL_SOCKET = 1;
    private static final int SO_RCVBUF = 8;
    private static final int IPPROTO_IP = 0;
    private static final int IP_TOS = 1;
    private static final int IP_RECVTOS = 13;
    private static final int IPPROTO_IPV6 = 41;
    private static final int IPV6_V6ONLY = 26;
    private static final int IPV6_RECVTCLASS = 66;
    private static final int IPV6_TCLASS = 67;
    private static final int MSG_DONTWAIT = 0x40;
    private static final short POLLIN = 1;
    private static final int POLL_TIMEOUT_MS = 100;

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

        static native int poll(Pointer fds, long count, int timeoutMs);

        static native int close(int fd);

        static {
            Native.register(Platform.C_LIBRARY_NAME);
        }
    }

    private final int fd;
    private final boolean ipv6;
    private final int port;
    private final ByteBuffer buffer;
    private final Memory message = new Memory(MSGHDR_BYTES);
    private final Memory name = new Memory(NAME_BYTES);
    private final Memory control = new Memory(CONTROL_BYTES);
    private final Memory iov = new Memory(16);
    private final byte[] sourceBytes;
    private final byte[] lastSourceBytes;
    private InetAddress lastSource;
    private volatile boolean readable;
    private volatile boolean closed;
    private Thread poller;

    private EcnReceiveSocket(final int fd, final boolean ipv6, final int port, final int maxDatagram) {
        this.fd = fd;
        this.ipv6 = ipv6;
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

    /**
     * Opens and binds the socket, or returns null where the native socket is not available (the caller falls
     * back to a socket that cannot see ECN).
     *
     * @throws IOException if the native socket exists but cannot be bound (the port is taken): the same failure
     *                     a {@code DatagramChannel} would report
     */
    static EcnReceiveSocket open(
            final InetAddress bindAddress, final int udpPort, final int receiveBufferBytes, final int maxDatagram)
            throws IOException {
        if (!Platform.isLinux() || Native.POINTER_SIZE != 8) {
            return null;
        }
        final boolean ipv6 = bindAddress instanceof Inet6Address;
        final int fd;
        try {
            fd = LibC.socket(ipv6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        } catch (final LinkageError e) {
            return null; // no JNA native library for this platform
        }
        if (fd < 0) {
            return null;
        }
        try (Memory value = new Memory(4);
                Memory address = new Memory(NAME_BYTES);
                Memory length = new Memory(4)) {
            value.setInt(0, receiveBufferBytes);
            LibC.setsockopt(fd, SOL_SOCKET, SO_RCVBUF, value, 4); // best effort, as with DatagramChannel
            value.setInt(0, 1);
            final boolean ecnVisible = ipv6
                    ? LibC.setsockopt(fd, IPPROTO_IPV6, IPV6_RECVTCLASS, value, 4) == 0
                    : LibC.setsockopt(fd, IPPROTO_IP, IP_RECVTOS, value, 4) == 0;
            if (!ecnVisible) {
                LibC.close(fd);
                return null;
            }
            if (ipv6) {
                LibC.setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, value, 4);
            }
            final int addressLength = writeSockaddr(address, bindAddress, udpPort);
            if (LibC.bind(fd, address, addressLength) != 0) {
                LibC.close(fd);
                throw new IOException("cannot bind UDP " + bindAddress.getHostAddress() + ":" + udpPort
                        + " (address in use or not local)");
            }
            length.setInt(0, NAME_BYTES);
            if (LibC.getsockname(fd, address, length) != 0) {
                LibC.close(fd);
                throw new IOException("cannot read the bound UDP port");
            }
            final int boundPort = ((address.getByte(2) & 0xFF) << 8) | (address.getByte(3) & 0xFF);
            return new EcnReceiveSocket(fd, ipv6, boundPort, maxDatagram);
        }
    }

    private static int writeSockaddr(final Memory address, final InetAddress bindAddress, final int udpPort) {
        address.clear();
        final byte[] bytes = bindAddress.getAddress();
        final boolean ipv6 = bindAddress instanceof Inet6Address;
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
    int port() {
        return port;
    }

    /** Starts the poller that wakes {@code selector} whenever a datagram waits. Once. */
    void register(final Selector selector) {
        final Thread thread = new Thread(() -> pollLoop(selector), "mrconf-softdut-udp-poll-" + port);
        thread.setDaemon(true);
        poller = thread;
        thread.start();
    }

    /** Whether the poller saw a datagram that {@link #receive} has not read yet. */
    boolean isReadable() {
        return readable;
    }

    /**
     * Hands up to {@code budget} waiting datagrams to {@code handler}; returns how many. Loop thread only.
     *
     * @return the number handed, or -1 after a socket error (counted by the caller)
     */
    int receive(final Handler handler, final int budget) {
        int received = 0;
        while (received < budget) {
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

    /** Whether this is an IPv4 socket (for the family check of peers). */
    Class<? extends InetAddress> family() {
        return ipv6 ? Inet6Address.class : Inet4Address.class;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
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
}
