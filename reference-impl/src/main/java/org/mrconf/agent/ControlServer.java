package org.mrconf.agent;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.mrconf.net.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TCP side of the control protocol (section 1): accepts clients, frames newline-delimited JSON with
 * the 1 MiB line limit and hands each request line to a {@link RequestHandler}, one at a time per client
 * so responses keep request order. A thread per client, at most {@link Limits#maxClients()} at once; a
 * line too long is answered with {@code request_too_large} and skipped up to its newline; bytes that are
 * not UTF-8 get {@code parse_error}. Nothing a client sends stops the server.
 *
 * <p>Idle and slow clients cannot lock others out: a client must start its first line within
 * {@link Limits#firstRequestTimeoutMs()}, start each later one within {@link Limits#idleTimeoutMs()} of the
 * last, and finish every line within {@link Limits#lineTimeoutMs()} of its first byte, or it is disconnected;
 * so a client trickling one byte at a time holds its thread and its line buffer (at most 1 MiB) for a bounded
 * time. A client is <em>trusted</em> once one of its requests succeeded (so it holds the token when there is
 * one). When every slot is taken, a newcomer displaces the untrusted client whose last whole line is oldest; if
 * every client is trusted, the trusted client silent longest, provided it has been silent (no whole line, no
 * request being answered) for at least {@link Limits#evictAfterIdleMs()}; only if none has is the newcomer refused.
 * So clients that had one request answered and then sit idle hold their slots against newcomers for seconds, not for
 * the idle timeout.
 */
public final class ControlServer implements AutoCloseable {
    /** Default TCP port of the control protocol. */
    public static final int DEFAULT_PORT = 4797;
    /** Longest line, newline included (1 MiB). */
    public static final int MAX_LINE_BYTES = 1 << 20;
    /** Most clients served at once by default. */
    public static final int MAX_CLIENTS = 64;

    /**
     * How many clients the server serves and how long it waits for them.
     *
     * @param maxClients            clients served at once
     * @param firstRequestTimeoutMs longest a new client may stay silent before its first line
     * @param idleTimeoutMs         longest a client may stay silent between lines
     * @param lineTimeoutMs         longest a client may take to send one line, from its first byte to its newline
     * @param evictAfterIdleMs      how long a trusted client must have been silent before a newcomer that finds every
     *                              slot taken may displace it
     */
    public record Limits(
            int maxClients, int firstRequestTimeoutMs, int idleTimeoutMs, int lineTimeoutMs, int evictAfterIdleMs) {
        /** Silence after which a trusted client may be displaced at the cap, by default. */
        public static final int DEFAULT_EVICT_AFTER_IDLE_MS = 5_000;

        public Limits {
            if (maxClients < 1
                    || firstRequestTimeoutMs < 1
                    || idleTimeoutMs < 1
                    || lineTimeoutMs < 1
                    || evictAfterIdleMs < 1) {
                throw new IllegalArgumentException("control server limits must be positive");
            }
        }

        /** These limits, trusted clients becoming displaceable after {@link #DEFAULT_EVICT_AFTER_IDLE_MS}. */
        public Limits(
                final int maxClients,
                final int firstRequestTimeoutMs,
                final int idleTimeoutMs,
                final int lineTimeoutMs) {
            this(maxClients, firstRequestTimeoutMs, idleTimeoutMs, lineTimeoutMs, DEFAULT_EVICT_AFTER_IDLE_MS);
        }

        /**
         * 64 clients, 10 s to the first line, 10 minutes between lines, 30 s for one line (a full 1 MiB line
         * at 35 KB/s), and a trusted client silent for 5 s may be displaced by a newcomer at the cap.
         */
        public static Limits defaults() {
            return new Limits(MAX_CLIENTS, 10_000, 600_000, 30_000, DEFAULT_EVICT_AFTER_IDLE_MS);
        }
    }

    /** One client: its socket, whether it is trusted, and when it last finished a line (or connected). */
    private static final class Session {
        final Socket socket;
        volatile boolean trusted;
        volatile boolean answering;
        // Whole lines only: a client trickling bytes must not look more recently heard from than a silent one.
        volatile long lastLineNs;

        Session(final Socket socket, final long nowNs) {
            this.socket = socket;
            this.lastLineNs = nowNs;
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(ControlServer.class);
    private static final int CHUNK_BYTES = 64 * 1024;

    private final ServerSocket serverSocket;
    private final RequestHandler handler;
    private final Set<Session> clients = ConcurrentHashMap.newKeySet();
    private final Limits limits;
    /** What tells how long a client has been silent, for choosing whom a newcomer displaces. */
    private final NanoClock clock;

    private final AtomicInteger clientNumber = new AtomicInteger();
    private final Thread acceptThread;
    private volatile boolean closed;

    private ControlServer(
            final ServerSocket serverSocket, final RequestHandler handler, final Limits limits, final NanoClock clock) {
        this.serverSocket = serverSocket;
        this.handler = handler;
        this.limits = limits;
        this.clock = clock;
        this.acceptThread = new Thread(this::acceptLoop, "mrconf-control-accept-" + serverSocket.getLocalPort());
        this.acceptThread.setDaemon(true);
    }

    /**
     * Checks the token policy ({@link TokenPolicy#check}), then binds {@code bindAddress}:{@code port}
     * (0 for any free port) and starts serving.
     *
     * @throws IllegalArgumentException off loopback without a token of at least 16 characters; nothing is bound
     * @throws IOException              if the address cannot be bound
     */
    public static ControlServer start(
            final InetAddress bindAddress, final int port, final String token, final RequestHandler handler)
            throws IOException {
        return start(bindAddress, port, token, handler, Limits.defaults());
    }

    /** As {@link #start(InetAddress, int, String, RequestHandler)}, with these limits. */
    public static ControlServer start(
            final InetAddress bindAddress,
            final int port,
            final String token,
            final RequestHandler handler,
            final Limits limits)
            throws IOException {
        return start(bindAddress, port, token, handler, limits, NanoClock.system());
    }

    /**
     * As {@link #start(InetAddress, int, String, RequestHandler, Limits)}, with the clock that measures how long
     * clients have been silent when a newcomer finds every slot taken. The socket timeouts and line deadlines run on
     * real time.
     */
    public static ControlServer start(
            final InetAddress bindAddress,
            final int port,
            final String token,
            final RequestHandler handler,
            final Limits limits,
            final NanoClock clock)
            throws IOException {
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(clock, "clock");
        TokenPolicy.check(bindAddress, token);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("control port must be 0 to 65535, was " + port);
        }
        final ServerSocket socket = new ServerSocket();
        try {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(bindAddress, port), 50);
        } catch (final IOException e) {
            socket.close();
            throw e;
        }
        final ControlServer server = new ControlServer(socket, handler, limits, clock);
        server.acceptThread.start();
        return server;
    }

    /** The bound TCP port. */
    public int port() {
        return serverSocket.getLocalPort();
    }

    /** The bound address and port. */
    public InetSocketAddress address() {
        return (InetSocketAddress) serverSocket.getLocalSocketAddress();
    }

    /** Stops accepting, disconnects every client and waits briefly for the threads to end. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        closeQuietly(serverSocket);
        for (final Session client : clients) {
            closeQuietly(client.socket);
        }
        try {
            acceptThread.join(2_000);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void acceptLoop() {
        while (!closed) {
            final Socket client;
            try {
                client = serverSocket.accept();
            } catch (final IOException e) {
                if (!closed) {
                    LOG.warn("control server stopped accepting: {}", e.toString());
                }
                return;
            }
            if (closed || (clients.size() >= limits.maxClients() && !displaceUntrusted() && !displaceIdlest())) {
                LOG.warn(
                        "refused control client {}: {} trusted clients already, none silent for {} ms",
                        client.getRemoteSocketAddress(),
                        limits.maxClients(),
                        limits.evictAfterIdleMs());
                closeQuietly(client);
                continue;
            }
            final Session session = new Session(client, clock.nanoTime());
            clients.add(session);
            final Thread thread =
                    new Thread(() -> serve(session), "mrconf-control-client-" + clientNumber.incrementAndGet());
            thread.setDaemon(true);
            thread.start();
        }
    }

    /** Disconnects the untrusted client whose last line is oldest, not one being answered; false if none. */
    private boolean displaceUntrusted() {
        Session victim = null;
        for (final Session session : clients) {
            if (!session.trusted
                    && !session.answering
                    && (victim == null || session.lastLineNs - victim.lastLineNs < 0)) {
                victim = session;
            }
        }
        if (victim == null) {
            return false;
        }
        LOG.info("disconnected untrusted control client {} to make room", victim.socket.getRemoteSocketAddress());
        clients.remove(victim);
        closeQuietly(victim.socket);
        return true;
    }

    /**
     * Disconnects the trusted client silent longest, if it has been silent at least {@link Limits#evictAfterIdleMs()}
     * and is not being answered; false if none is.
     */
    private boolean displaceIdlest() {
        final long nowNs = clock.nanoTime();
        final long minimumNs = TimeUnit.MILLISECONDS.toNanos(limits.evictAfterIdleMs());
        Session victim = null;
        for (final Session session : clients) {
            if (!session.answering
                    && nowNs - session.lastLineNs >= minimumNs
                    && (victim == null || session.lastLineNs - victim.lastLineNs < 0)) {
                victim = session;
            }
        }
        if (victim == null) {
            return false;
        }
        LOG.info(
                "disconnected control client {}, silent for {} ms, to make room",
                victim.socket.getRemoteSocketAddress(),
                TimeUnit.NANOSECONDS.toMillis(nowNs - victim.lastLineNs));
        clients.remove(victim);
        closeQuietly(victim.socket);
        return true;
    }

    private void serve(final Session session) {
        final Socket client = session.socket;
        try (client;
                InputStream in = client.getInputStream();
                OutputStream out = new BufferedOutputStream(client.getOutputStream(), CHUNK_BYTES)) {
            client.setTcpNoDelay(true);
            client.setSoTimeout(limits.firstRequestTimeoutMs());
            new LineReader(session, in, out).run();
        } catch (final SocketTimeoutException e) {
            LOG.info("control client {} was silent too long; disconnected", client.getRemoteSocketAddress());
        } catch (final LineTooSlowException e) {
            LOG.info(
                    "control client {} took over {} ms to send one line; disconnected",
                    client.getRemoteSocketAddress(),
                    limits.lineTimeoutMs());
        } catch (final SocketException e) {
            // The client went away or the server is closing.
        } catch (final IOException e) {
            LOG.debug("control client {} failed", client.getRemoteSocketAddress(), e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (final RuntimeException e) {
            LOG.warn("control client {} dropped after an internal error", client.getRemoteSocketAddress(), e);
        } finally {
            clients.remove(session);
        }
    }

    /** A client's line took longer than {@link Limits#lineTimeoutMs()} from its first byte. */
    private static final class LineTooSlowException extends IOException {
        private static final long serialVersionUID = 1L;

        LineTooSlowException() {
            super("line deadline passed", null);
        }
    }

    /**
     * Splits one client's bytes into lines, answers each, and skips lines that are too long. Between lines a read
     * waits up to the idle timeout; within a line, only until the line's deadline.
     */
    private final class LineReader {
        private final Session session;
        private final InputStream in;
        private final OutputStream out;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream(4096);
        private boolean discarding;
        /** Whether bytes of a line without its newline yet have arrived; then {@link #lineDeadlineNs} holds. */
        private boolean inLine;

        private long lineDeadlineNs;

        LineReader(final Session session, final InputStream in, final OutputStream out) {
            this.session = session;
            this.in = in;
            this.out = out;
        }

        void run() throws IOException, InterruptedException {
            final byte[] chunk = new byte[CHUNK_BYTES];
            int read;
            while ((read = readWithinDeadline(chunk)) >= 0) {
                int start = 0;
                for (int i = 0; i < read; i++) {
                    if (chunk[i] == '\n') {
                        if (!discarding && append(chunk, start, i - start)) {
                            // answer() stamps the silence before the client can read the answer: stamping it again
                            // here, after the answer is out, would let a client's silence start later than a reply
                            // it has already read (and a fair eviction pick the wrong client).
                            answer(line.toByteArray());
                        } else {
                            session.lastLineNs = clock.nanoTime();
                        }
                        session.socket.setSoTimeout(limits.idleTimeoutMs());
                        discarding = false;
                        inLine = false;
                        line.reset();
                        start = i + 1;
                    }
                }
                if (start < read && !inLine) {
                    inLine = true;
                    lineDeadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limits.lineTimeoutMs());
                }
                if (!discarding) {
                    append(chunk, start, read - start);
                }
            }
            if (!discarding && line.size() > 0) {
                answer(line.toByteArray());
            }
        }

        /** Reads the next bytes; within a line, waits only until its deadline ({@link LineTooSlowException}). */
        private int readWithinDeadline(final byte[] chunk) throws IOException {
            if (!inLine) {
                return in.read(chunk);
            }
            final long remainingNs = lineDeadlineNs - System.nanoTime();
            if (remainingNs <= 0) {
                throw new LineTooSlowException();
            }
            session.socket.setSoTimeout((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(remainingNs)));
            try {
                return in.read(chunk);
            } catch (final SocketTimeoutException e) {
                throw new LineTooSlowException();
            }
        }

        /** Adds bytes to the current line; false (after answering request_too_large) if it got too long. */
        private boolean append(final byte[] bytes, final int offset, final int length) throws IOException {
            if (line.size() + length > MAX_LINE_BYTES - 1) {
                line.reset();
                discarding = true;
                respond(ControlAgent.errorLine(
                        ErrorCode.REQUEST_TOO_LARGE,
                        "the line exceeds " + MAX_LINE_BYTES + " bytes; it was skipped up to its newline"));
                return false;
            }
            line.write(bytes, offset, length);
            return true;
        }

        private void answer(final byte[] bytes) throws IOException, InterruptedException {
            final String request;
            try {
                request = StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(bytes))
                        .toString();
            } catch (final CharacterCodingException e) {
                session.lastLineNs = clock.nanoTime();
                respond(ControlAgent.errorLine(ErrorCode.PARSE_ERROR, "the line is not UTF-8"));
                return;
            }
            String response;
            session.answering = true;
            try {
                response = handler.submit(request).toCompletableFuture().get();
                if (response == null) {
                    response = ControlAgent.errorLine(ErrorCode.INTERNAL, "the device gave no answer");
                }
            } catch (final ExecutionException e) {
                response = ControlAgent.errorLine(ErrorCode.INTERNAL, "the device did not answer: " + e.getCause());
            } finally {
                session.answering = false;
            }
            if (!session.trusted && isSuccess(response)) {
                session.trusted = true;
            }
            session.lastLineNs = clock.nanoTime(); // silence counts from the answer, set before the client can read it
            respond(response);
        }

        private void respond(final String response) throws IOException {
            out.write(response.getBytes(StandardCharsets.UTF_8));
            out.write('\n');
            out.flush();
        }
    }

    /** Whether a response line reports success: its top-level {@code ok} is true. */
    private static boolean isSuccess(final String response) {
        try {
            final com.fasterxml.jackson.databind.JsonNode node = ControlAgent.MAPPER.readTree(response);
            return node != null && node.path("ok").asBoolean(false);
        } catch (final IOException e) {
            return false;
        }
    }

    private static void closeQuietly(final AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (final Exception e) {
            // Nothing useful to do.
        }
    }
}
