package org.mrconf.agent;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.mrconf.defect.Defect;
import org.mrconf.transport.Endpoint;
import org.mrconf.transport.EndpointConfig;

/**
 * {@code hello} (section 4): the device's description, from the endpoint's configuration and the agent's:
 * identity, profiles, active defects, wire settings, the limits it enforces and its timer parameters.
 */
final class Hello {
    private final Endpoint endpoint;
    private final AgentConfig config;

    Hello(final Endpoint endpoint, final AgentConfig config) {
        this.endpoint = endpoint;
        this.config = config;
    }

    /** {@code hello}. */
    ObjectNode answer(final Args args) {
        args.optionalString("client");
        if (args.has("versions")) {
            final List<Long> versions = args.integers("versions", 0, Args.WR_ID_MAX);
            if (!versions.contains((long) ControlAgent.PROTOCOL_VERSION)) {
                throw new RequestError(
                        ErrorCode.UNSUPPORTED_VERSION,
                        "the client speaks " + versions + "; this agent speaks [" + ControlAgent.PROTOCOL_VERSION + "]",
                        "args.versions");
            }
        }
        final EndpointConfig ec = endpoint.config();
        final ObjectNode result = Envelope.JSON.objectNode();
        result.put("protocol", ControlAgent.PROTOCOL_VERSION);
        final ObjectNode implementation = result.putObject("implementation");
        implementation.put("vendor", config.vendor());
        implementation.put("model", config.model());
        // Defect HELLO_OMITS_FIRMWARE: hello leaves the firmware version empty (clause 12.1.2).
        implementation.put("firmware", ec.defects().has(Defect.HELLO_OMITS_FIRMWARE) ? "" : config.firmware());
        implementation.put("driver", config.driver());
        final ArrayNode profiles = result.putArray("profiles");
        // A profile the endpoint was built without is not claimed (clause 12.1.5), whatever the agent was told.
        config.profiles().stream()
                .filter(profile -> java.util.Arrays.stream(org.mrconf.transport.Feature.values())
                        .noneMatch(f -> f.profile().equals(profile) && !ec.offers(f)))
                .forEach(profiles::add);
        // Deliberate non-conformances are always reported, so no report can pass a defect DUT off as clean.
        final ArrayNode defects = result.putArray("defects");
        ec.defects().names().forEach(defects::add);
        final ObjectNode wire = result.putObject("wire");
        wire.put("version", "1.0");
        wire.put("udpPort", config.udpPort());
        final ArrayNode addresses = wire.putArray("addresses");
        config.addresses().forEach(addresses::add);
        final ObjectNode limits = result.putObject("limits");
        limits.put("maxPaths", 256);
        limits.put("maxStreams", 65536);
        // The transport refuses a longer WRITE or READ_REQUEST (Table 5-13); the soft DUT builds its endpoint with this
        // same value, and no region, so no receive, may be longer than the memory budget.
        limits.put("maxMessageLength", maxMessageLength(endpoint, config));
        limits.put("maxOutstandingMessages", ec.maxOutstandingMessages());
        limits.put("maxPostedReceives", ec.maxPostedReceives());
        // Defect HELLO_UNDERSTATES_MTU: hello claims less than the device carries (clause 12.1.2).
        limits.put("mtu", ec.mtuBytes() - (ec.defects().has(Defect.HELLO_UNDERSTATES_MTU) ? 512 : 0));
        limits.put("maxConnections", config.maxConnections());
        limits.put("maxTotalPaths", config.maxTotalPaths());
        final ObjectNode parameters = result.putObject("parameters");
        parameters.put("minRtoNs", ec.minRtoNs());
        parameters.put("initialRtoNs", ec.initialRtoNs());
        parameters.put("maxRtoNs", ec.maxRtoNs());
        // A unit slip, when told to: microseconds under a nanosecond name.
        parameters.put(
                "ackDelayNs", ec.ackDelayNs() / (ec.defects().has(Defect.HELLO_ACK_DELAY_IN_MICROSECONDS) ? 1000 : 1));
        parameters.put("ackCoalescingCount", ec.ackCoalescingCount());
        parameters.put("unhealthyAfterTimeouts", ec.unhealthyAfterTimeouts());
        parameters.put("connectionTimeoutNs", ec.connectionTimeoutNs());
        parameters.put("initialPsn", 0);
        parameters.put("timerToleranceNs", config.timerToleranceNs());
        // Spec clauses 12.1.5, 12.1.6: what decides applicability and what a rate hint is judged against.
        parameters.put(
                "linkRateBitsPerSecond",
                ec.lineRateBitsPerSecond() / (ec.defects().has(Defect.HELLO_LINK_RATE_IN_KBPS) ? 1000 : 1));
        parameters.put("targetUtilization", ec.rateHintUtilization());
        parameters.put("rateHintIntervalNs", ec.rateHintIntervalNs());
        // Spec clause 8.2.4 and Table 12-2: the window RateHint counts senders over.
        parameters.put("rateHintActiveWindowNs", Math.max(ec.rateHintIntervalNs(), ec.rateHintActiveWindowNs()));
        parameters.put("decreaseFactor", ec.decreaseFactor());
        // Clause 12.1.6: the first windows, which a window case needs to know.
        parameters.put("initialPathWindowPackets", ec.initialPathWindow());
        parameters.put("initialConnectionWindowPackets", ec.initialConnectionWindow());
        // Clause 10.1.2, Table 12-2: a maximum is declared only where the reference stops the increase below what
        // 256 paths of 256 packets could carry; without one the increase has none that a peer could meet.
        if (ec.maxConnectionWindow() < org.mrconf.transport.EndpointConfig.UNBOUNDED_CONNECTION_WINDOW) {
            parameters.put("maxConnectionWindowPackets", ec.maxConnectionWindow());
        }
        // Defect HELLO_RNR_RETRY_IN_NANOSECONDS: the value in the wrong unit under the microsecond name (9.1.9).
        parameters.put(
                "receiverNotReadyRetryUs",
                ec.receiverNotReadyRetryNs() / (ec.defects().has(Defect.HELLO_RNR_RETRY_IN_NANOSECONDS) ? 1 : 1000));
        final ArrayNode optional = result.putArray("optionalClauses");
        config.optionalClauses().forEach(optional::add);
        final ObjectNode reorder = result.putObject("reorderTolerance");
        // Spec clause 6.3.3: the tolerance the endpoint was built with (none unless configured).
        reorder.put("packets", ec.reorderTolerancePackets());
        reorder.put("timeNs", ec.reorderToleranceNs());
        return result;
    }

    /**
     * The declared {@code limits.maxMessageLength}: what the transport accepts as a receiver, and no more than the
     * memory budget, since no region (so no receive) may be longer.
     */
    static long maxMessageLength(final Endpoint endpoint, final AgentConfig config) {
        return Math.min(endpoint.config().maxMessageLengthBytes(), config.memoryBudgetBytes());
    }
}
