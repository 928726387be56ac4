package org.mrconf.dut;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The control protocol's TCP transport (section 1): one connection to the agent, UTF-8 lines terminated by
 * {@code \n}, one request at a time. Created by {@link JsonLineControlClient#connect}; any I/O failure or timeout
 * closes it for good, because a late response would pair with the wrong request.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class TcpLineTransport implements LineTransport {
    /** Default connect timeout. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /**
     * Default time the agent may stay silent while answering: above the 10 s that {@code poll_completions} may
     * wait, with a margin.
     */
    public static final Duration DEFAULT_RESPONSE_TIMEOUT = Duration.ofSeconds(15);
    /**
     * Longest response accepted. The protocol caps lines at 1 MiB (and region transfers at 512 KiB per request so
     * they fit); accepting more keeps agents that overshoot usable while bounding memory.
     */
    public static final int MAX_RESPONSE_BYTES = 32 << 20;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final String peer;
    private String failure;

    private TcpLineTransport(Socket socket, String peer) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
        this.out = socket.getOutputStream();
        this.peer = peer;
    }

    /**
     * Connects to the agent at {@code host:port}.
     *
     * @param responseTimeout how long a response may take to start or stall between bytes
     * @throws IOException if the connection cannot be made within {@code connectTimeout}
     */
    public static TcpLineTransport connect(String host, int port, Duration connectTimeout, Duration responseTimeout)
            throws IOException {
        Objects.requireNonNull(host, "host");
        Socket socket = new Socket();
        String peer = host + ":" + port;
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), millis(connectTimeout));
            socket.setSoTimeout(millis(responseTimeout));
            return new TcpLineTransport(socket, peer);
        } catch (IOException e) {
            socket.close();
            throw new IOException("cannot connect to the DUT agent at " + peer + ": " + e.getMessage(), e);
        }
    }

    private static int millis(Duration duration) {
        long ms = duration.toMillis();
        if (ms <= 0 || ms > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("timeout must be 1 ms to 24 days: " + duration);
        }
        return (int) ms;
    }

    @Override
    public synchronized String exchange(String requestLine) throws IOException {
        if (failure != null) {
            throw new IOException("connection to " + peer + " is unusable after an earlier failure: " + failure);
        }
        try {
            out.write((requestLine + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            return readLine();
        } catch (SocketTimeoutException e) {
            throw fail("no response from " + peer + " within " + socket.getSoTimeout() + " ms", e);
        } catch (IOException e) {
            throw fail(e.getMessage() != null ? e.getMessage() : e.toString(), e);
        }
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(256);
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the agent at " + peer + " closed the connection"
                        + (line.size() > 0 ? " in the middle of a response" : ""));
            }
            if (b == '\n') {
                return line.toString(StandardCharsets.UTF_8);
            }
            if (line.size() >= MAX_RESPONSE_BYTES) {
                throw new IOException("response from " + peer + " exceeds " + MAX_RESPONSE_BYTES + " bytes");
            }
            line.write(b);
        }
    }

    private IOException fail(String reason, IOException cause) {
        failure = reason;
        try {
            socket.close();
        } catch (IOException ignored) {
            // Already failing; the first reason is the useful one.
        }
        return cause instanceof SocketTimeoutException || !reason.equals(cause.getMessage())
                ? new IOException(reason, cause)
                : cause;
    }

    @Override
    public synchronized void close() throws IOException {
        if (failure == null) {
            failure = "closed";
        }
        socket.close();
    }

    @Override
    public String toString() {
        return "TcpLineTransport[" + peer + "]";
    }
}
