package org.mrconf.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A blocking control-protocol client over TCP on loopback, as the suite's DUT driver would be. */
public final class NdjsonClient implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final BufferedReader in;
    private long nextId = 1;

    public NdjsonClient(final int port) {
        try {
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setSoTimeout(60_000);
            out = socket.getOutputStream();
            in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8), 1 << 16);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends raw bytes as they are. */
    public void send(final byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void sendLine(final String line) {
        send((line + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** The next response line, parsed; null at end of stream. */
    public JsonNode readResponse() {
        try {
            final String line = in.readLine();
            return line == null ? null : Requests.parse(line);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends one request and returns its whole response, checking the id came back. */
    public JsonNode call(final String op, final ObjectNode args) {
        final long id = nextId++;
        sendLine(Requests.line(id, op, args));
        final JsonNode response = readResponse();
        assertThat(response).as("response to %s", op).isNotNull();
        assertThat(response.get("id").asLong()).isEqualTo(id);
        return response;
    }

    /** Sends one request that must succeed and returns its result. */
    public JsonNode ok(final String op, final ObjectNode args) {
        final JsonNode response = call(op, args);
        assertThat(response.get("ok").asBoolean())
                .as("%s answered %s", op, response)
                .isTrue();
        return response.get("result");
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (final IOException e) {
            // Nothing useful to do.
        }
    }
}
