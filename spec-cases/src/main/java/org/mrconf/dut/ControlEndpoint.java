package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Where the DUT's control agent listens (control protocol section 1) and the token it wants (section 3).
 *
 * @param host  host name or address literal of the agent
 * @param port  TCP port, by default {@value #DEFAULT_PORT}
 * @param token the shared token, at least 16 characters, when the agent requires one
 */
@API(status = MAINTAINED, since = "0.1")
public record ControlEndpoint(String host, int port, Optional<String> token) {
    /** The control protocol's default TCP port. */
    public static final int DEFAULT_PORT = 4797;
    /** Shortest token the protocol allows. */
    public static final int MIN_TOKEN_LENGTH = 16;

    public ControlEndpoint {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(token, "token");
        if (port < 1 || port > 0xFFFF) {
            throw new IllegalArgumentException("port must be 1 to 65535: " + port);
        }
    }

    public static ControlEndpoint of(String host, int port) {
        return new ControlEndpoint(host, port, Optional.empty());
    }

    /** Hides the token, which a report must not print. */
    @Override
    public String toString() {
        return "ControlEndpoint[" + host + ":" + port + (token.isPresent() ? ", token=****" : "") + "]";
    }
}
