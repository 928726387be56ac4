package org.mrconf.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.function.UnaryOperator;

/**
 * The soak benchmark's view of a control channel: send one request line, get its {@code result}, or an
 * exception carrying the error. Over TCP for the DUT in its child process; in process for the peer.
 */
final class LineClient implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final UnaryOperator<String> exchange;
    private final AutoCloseable resource;
    private long nextId = 1;

    private LineClient(final UnaryOperator<String> exchange, final AutoCloseable resource) {
        this.exchange = exchange;
        this.resource = resource;
    }

    static LineClient inProcess(final UnaryOperator<String> exchange) {
        return new LineClient(exchange, () -> {});
    }

    static LineClient tcp(final InetSocketAddress address) throws IOException {
        final Socket socket = new Socket();
        socket.connect(address, 5_000);
        socket.setSoTimeout(60_000);
        socket.setTcpNoDelay(true);
        final OutputStream out = socket.getOutputStream();
        final BufferedReader in =
                new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8), 1 << 20);
        return new LineClient(
                line -> {
                    try {
                        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                        out.flush();
                        return in.readLine();
                    } catch (final IOException e) {
                        throw new IllegalStateException("control channel to " + address + " failed: " + e, e);
                    }
                },
                socket);
    }

    /** Runs {@code op} with {@code args} (a JSON object text) and returns its result. */
    JsonNode call(final String op, final String args) {
        final String line = "{\"v\":1,\"id\":" + nextId++ + ",\"op\":\"" + op + "\",\"args\":" + args + "}";
        final String response = exchange.apply(line);
        if (response == null) {
            throw new IllegalStateException(op + ": the device hung up");
        }
        try {
            final JsonNode json = JSON.readTree(response);
            if (!json.path("ok").asBoolean(false)) {
                throw new IllegalStateException(op + " failed: " + json.path("error"));
            }
            return json.path("result");
        } catch (final IOException e) {
            throw new IllegalStateException(op + ": not JSON: " + response, e);
        }
    }

    @Override
    public void close() throws Exception {
        resource.close();
    }
}
