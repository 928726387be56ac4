package org.mrconf.softdut;

import java.net.InetAddress;
import java.util.Objects;
import org.mrconf.agent.ControlServer;
import org.mrconf.transport.EndpointConfig;
import org.mrconf.wire.WireConstants;

/**
 * How to run a {@link SoftDut}. Build with {@link #builder()}; every field has a default.
 *
 * @param bindAddress       where the UDP sockets and the control server bind (default 127.0.0.1)
 * @param udpPort           the MetaRoCE UDP port (default 4796; 0 picks a free one)
 * @param controlPort       the control protocol's TCP port (default 4797; 0 picks a free one; -1 for none)
 * @param token             the control token, or null; mandatory off loopback (docs/dut-control-protocol.md, 3)
 * @param entropyPorts      how many UDP sockets packets leave from (default 8): a path whose entropy is
 *                          {@code e} sends from socket {@code e % entropyPorts}, so the source ports on the
 *                          wire (the entropy of spec clause 4.1.4) are the sockets' ports, paths beyond this
 *                          count share them, and re-pathing picks an entropy on another socket (clause 6.6.4);
 *                          with 1 socket the soft DUT cannot re-path and does not claim multipath
 * @param endpoint          the endpoint's parameters (default {@link #defaultEndpointConfig()})
 * @param memoryBudgetBytes most bytes of regions registered at once
 * @param injectedLoss      share of received UDP datagrams dropped before the endpoint sees them (default 0):
 *                          wire loss for benchmarks on loopback ({@code metaroce bench udp}), never for conformance
 * @param injectedLossSeed  seed of that drop decision, so that a run can be repeated
 */
public record SoftDutOptions(
        InetAddress bindAddress,
        int udpPort,
        int controlPort,
        String token,
        int entropyPorts,
        EndpointConfig endpoint,
        long memoryBudgetBytes,
        double injectedLoss,
        long injectedLossSeed) {
    /** Most entropy sockets. */
    public static final int MAX_ENTROPY_PORTS = 1024;
    /** Largest MTU: an IP datagram's length field is 16 bits. */
    public static final int MAX_MTU = 65535;

    public SoftDutOptions {
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(endpoint, "endpoint");
        if (udpPort < 0 || udpPort > 65535) {
            throw new IllegalArgumentException("UDP port must be 0 to 65535, was " + udpPort);
        }
        if (controlPort < -1 || controlPort > 65535) {
            throw new IllegalArgumentException("control port must be 0 to 65535 (or -1 for none), was " + controlPort);
        }
        if (token != null && token.isEmpty()) {
            throw new IllegalArgumentException("the token must not be empty");
        }
        if (entropyPorts < 1 || entropyPorts > MAX_ENTROPY_PORTS) {
            throw new IllegalArgumentException(
                    "entropy ports must be 1 to " + MAX_ENTROPY_PORTS + ", was " + entropyPorts);
        }
        if (endpoint.mtuBytes() > MAX_MTU) {
            throw new IllegalArgumentException(
                    "mtu must be at most " + MAX_MTU + " (one IP datagram), was " + endpoint.mtuBytes());
        }
        if (memoryBudgetBytes < 1) {
            throw new IllegalArgumentException("the memory budget must be positive");
        }
        if (!(injectedLoss >= 0 && injectedLoss < 1)) {
            throw new IllegalArgumentException("injected loss must be at least 0 and below 1, was " + injectedLoss);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The endpoint parameters for real sockets: the defaults with a 4 Gbit/s line rate (what one Java
     * thread moves over loopback), an RTO of 2 ms to 500 ms and a 5 s connection timeout, so scheduling
     * and garbage-collection pauses do not look like loss.
     */
    public static EndpointConfig defaultEndpointConfig() {
        return EndpointConfig.builder()
                .lineRate(4_000_000_000L)
                .timers(2_000_000, 10_000_000, 500_000_000)
                .ackPolicy(50_000, 16)
                .connectionTimeout(5_000_000_000L)
                .build();
    }

    /** Builds {@link SoftDutOptions}. */
    public static final class Builder {
        private InetAddress bindAddress = InetAddress.getLoopbackAddress();
        private int udpPort = WireConstants.DEFAULT_UDP_PORT;
        private int controlPort = ControlServer.DEFAULT_PORT;
        private String token;
        private int entropyPorts = 8;
        private EndpointConfig endpoint = defaultEndpointConfig();
        private long memoryBudgetBytes = Math.min(1L << 30, Runtime.getRuntime().maxMemory() / 2);
        private double injectedLoss;
        private long injectedLossSeed = 1;

        private Builder() {}

        public Builder bindAddress(final InetAddress address) {
            this.bindAddress = address;
            return this;
        }

        public Builder udpPort(final int port) {
            this.udpPort = port;
            return this;
        }

        /** The control server's TCP port; 0 for any free port, -1 for no control server. */
        public Builder controlPort(final int port) {
            this.controlPort = port;
            return this;
        }

        public Builder token(final String token) {
            this.token = token;
            return this;
        }

        public Builder entropyPorts(final int count) {
            this.entropyPorts = count;
            return this;
        }

        public Builder endpoint(final EndpointConfig config) {
            this.endpoint = config;
            return this;
        }

        /** Shorthand: the current endpoint parameters with another MTU. */
        public Builder mtu(final int bytes) {
            this.endpoint = endpoint.toBuilder().mtu(bytes).build();
            return this;
        }

        public Builder memoryBudget(final long bytes) {
            this.memoryBudgetBytes = bytes;
            return this;
        }

        /** Drops this share of received datagrams, chosen by a generator seeded with {@code seed}. */
        public Builder injectedLoss(final double share, final long seed) {
            this.injectedLoss = share;
            this.injectedLossSeed = seed;
            return this;
        }

        public SoftDutOptions build() {
            return new SoftDutOptions(
                    bindAddress,
                    udpPort,
                    controlPort,
                    token,
                    entropyPorts,
                    endpoint,
                    memoryBudgetBytes,
                    injectedLoss,
                    injectedLossSeed);
        }
    }
}
