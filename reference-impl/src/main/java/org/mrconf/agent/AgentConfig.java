package org.mrconf.agent;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What a {@link ControlAgent} says about itself and how it guards access. Build with {@link #builder()}.
 *
 * @param vendor             {@code hello}: implementation vendor
 * @param model              {@code hello}: implementation model
 * @param firmware           {@code hello}: firmware version
 * @param driver             {@code hello}: driver version
 * @param profiles           {@code hello}: the spec profiles claimed (spec clause 12.1.1)
 * @param udpPort            {@code hello}: the MetaRoCE UDP port the device listens on
 * @param addresses          {@code hello}: the device's MetaRoCE addresses, as literals
 * @param controlBindAddress where the control channel listens, or null when it is not on a network (an
 *                           in-process channel); off loopback a token is mandatory ({@link TokenPolicy})
 * @param token              the token every request must carry, or null for none
 * @param memoryBudgetBytes  most bytes of regions registered at once; more is a {@code conflict}
 * @param timerToleranceNs   {@code hello}: how late the device's timers may fire (spec clause 12.1.3)
 * @param extraCounters      the runtime's own counters (plain names; the agent adds the {@code x_} prefix)
 * @param optionalClauses    {@code hello}: the SHOULD and MAY clauses implemented (spec clause 12.1.5)
 * @param maxConnections     most connections at once ({@code hello} limits); more is a {@code conflict}
 * @param maxTotalPaths      most paths over all connections at once; more is a {@code conflict}
 */
public record AgentConfig(
        String vendor,
        String model,
        String firmware,
        String driver,
        List<String> profiles,
        int udpPort,
        List<String> addresses,
        InetAddress controlBindAddress,
        String token,
        long memoryBudgetBytes,
        long timerToleranceNs,
        Supplier<Map<String, Long>> extraCounters,
        List<String> optionalClauses,
        int maxConnections,
        int maxTotalPaths) {

    /**
     * Connections the soft DUT serves at once by default: an idle connection of 256 paths and 65,536
     * streams costs it about 170 KB, a busy one a few MB, so 1,024 fit a small heap.
     */
    public static final int DEFAULT_MAX_CONNECTIONS = 1024;
    /** Paths over all connections by default: each busy path holds a 256-PSN window of slots (about 9 KB). */
    public static final int DEFAULT_MAX_TOTAL_PATHS = 8192;

    public AgentConfig {
        Objects.requireNonNull(vendor, "vendor");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(firmware, "firmware");
        Objects.requireNonNull(driver, "driver");
        profiles = List.copyOf(profiles);
        addresses = List.copyOf(addresses);
        Objects.requireNonNull(extraCounters, "extraCounters");
        optionalClauses = List.copyOf(optionalClauses);
        if (controlBindAddress != null) {
            TokenPolicy.check(controlBindAddress, token);
        } else if (token != null && token.isEmpty()) {
            throw new IllegalArgumentException("the token must not be empty");
        }
        if (memoryBudgetBytes < 1) {
            throw new IllegalArgumentException("memoryBudgetBytes must be positive");
        }
        if (maxConnections < 1 || maxTotalPaths < 1) {
            throw new IllegalArgumentException("connection limits must be positive");
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds an {@link AgentConfig}; every field starts at the reference soft DUT's value. */
    public static final class Builder {
        private String vendor = "MetaRoCE Open Conformance";
        private String model = "reference soft DUT";
        private String firmware = "0.1.0";
        private String driver = "java";
        private List<String> profiles = List.of("core", "multipath", "streams", "read", "immediate", "congestion");
        private int udpPort = 4796;
        private List<String> addresses = List.of("127.0.0.1");
        private InetAddress controlBindAddress = InetAddress.getLoopbackAddress();
        private String token;
        private long memoryBudgetBytes = 1L << 30;
        private long timerToleranceNs = 20_000_000; // a JVM on a shared 2-core machine: see reference-udp.json
        private Supplier<Map<String, Long>> extraCounters = Map::of;
        private List<String> optionalClauses = ControlAgent.OPTIONAL_CLAUSES;
        private int maxConnections = DEFAULT_MAX_CONNECTIONS;
        private int maxTotalPaths = DEFAULT_MAX_TOTAL_PATHS;

        private Builder() {}

        public Builder implementation(
                final String vendor, final String model, final String firmware, final String driver) {
            this.vendor = vendor;
            this.model = model;
            this.firmware = firmware;
            this.driver = driver;
            return this;
        }

        public Builder profiles(final List<String> profiles) {
            this.profiles = profiles;
            return this;
        }

        /** The MetaRoCE UDP port and addresses {@code hello} reports. */
        public Builder wire(final int udpPort, final List<String> addresses) {
            this.udpPort = udpPort;
            this.addresses = addresses;
            return this;
        }

        /** Where the control channel listens (null: not on a network) and its token (null: none). */
        public Builder access(final InetAddress controlBindAddress, final String token) {
            this.controlBindAddress = controlBindAddress;
            this.token = token;
            return this;
        }

        public Builder memoryBudget(final long bytes) {
            this.memoryBudgetBytes = bytes;
            return this;
        }

        public Builder timerTolerance(final long ns) {
            this.timerToleranceNs = ns;
            return this;
        }

        public Builder extraCounters(final Supplier<Map<String, Long>> counters) {
            this.extraCounters = counters;
            return this;
        }

        /** The SHOULD and MAY clauses {@code hello} lists (default: all the reference transport implements). */
        public Builder optionalClauses(final List<String> clauses) {
            this.optionalClauses = clauses;
            return this;
        }

        /** Most connections, and most paths over all of them, at once. */
        public Builder connectionLimits(final int connections, final int totalPaths) {
            this.maxConnections = connections;
            this.maxTotalPaths = totalPaths;
            return this;
        }

        public AgentConfig build() {
            return new AgentConfig(
                    vendor,
                    model,
                    firmware,
                    driver,
                    profiles,
                    udpPort,
                    addresses,
                    controlBindAddress,
                    token,
                    memoryBudgetBytes,
                    timerToleranceNs,
                    extraCounters,
                    optionalClauses,
                    maxConnections,
                    maxTotalPaths);
        }
    }
}
