package org.mrconf.dut;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A tiny NDJSON agent on loopback for the client tests: it records every request line and answers each with
 * whatever the test's responder returns ({@code null}: no answer at all, to test timeouts).
 */
final class FakeAgent implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    private final ServerSocket server;
    private final Thread thread;
    private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    private volatile Function<JsonNode, String> responder;
    private volatile Socket client;

    FakeAgent(Function<JsonNode, String> responder) throws IOException {
        this.responder = responder;
        this.server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        this.thread = new Thread(this::serve, "fake-agent");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Answers every request with {@code ok: true} and the given result JSON. */
    static Function<JsonNode, String> succeedWith(String resultJson) {
        return request -> "{\"v\":1,\"id\":" + request.get("id") + ",\"ok\":true,\"result\":" + resultJson + "}";
    }

    static Function<JsonNode, String> failWith(String code, String message, String field) {
        return request -> "{\"v\":1,\"id\":" + request.get("id") + ",\"ok\":false,\"error\":{\"code\":\"" + code
                + "\",\"message\":\"" + message + "\"" + (field != null ? ",\"field\":\"" + field + "\"" : "") + "}}";
    }

    void respondWith(Function<JsonNode, String> newResponder) {
        this.responder = newResponder;
    }

    int port() {
        return server.getLocalPort();
    }

    List<JsonNode> requests() {
        return List.copyOf(requests);
    }

    JsonNode lastRequest() {
        return requests.get(requests.size() - 1);
    }

    private void serve() {
        try (Socket socket = server.accept()) {
            client = socket;
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            OutputStream out = socket.getOutputStream();
            String line;
            while ((line = in.readLine()) != null) {
                JsonNode request = JSON.readTree(line);
                requests.add(request);
                String response = responder.apply(request);
                if (response != null) {
                    out.write((response + "\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            }
        } catch (IOException e) {
            // The test closed the agent or the client went away.
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        Socket s = client;
        if (s != null) {
            s.close();
        }
    }
}
