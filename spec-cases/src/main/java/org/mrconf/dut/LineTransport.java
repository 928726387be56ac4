package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.io.IOException;
import org.apiguardian.api.API;

/**
 * Carries the control protocol's newline-delimited JSON: one request line in, the agent's one response line out.
 * {@link TcpLineTransport} reaches an agent over TCP; the CLI plugs an in-process agent in with a lambda,
 * {@code new JsonLineControlClient(agent::handleLine)}.
 */
@API(status = MAINTAINED, since = "0.1")
@FunctionalInterface
public interface LineTransport extends AutoCloseable {
    /**
     * Sends one request and returns the response.
     *
     * @param requestLine a JSON object without the terminating newline
     * @return the response line without its newline
     * @throws IOException if the channel fails or times out; the transport is then unusable
     */
    String exchange(String requestLine) throws IOException;

    /** Releases the channel. Does nothing by default. */
    @Override
    default void close() throws IOException {}
}
