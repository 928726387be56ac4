package org.mrconf.agent;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.mrconf.transport.Counter;
import org.mrconf.transport.Endpoint;

/**
 * {@code read_counters} (section 5): the endpoint's and the runtime's counters under their protocol
 * names, standard names as they are and every other one with an {@code x_} prefix, counted from the
 * last {@code reset}.
 */
final class CounterReport {
    /** The counter names of section 5. */
    static final Set<String> STANDARD = Set.of(
            "rx_packets",
            "rx_truncated",
            "rx_unsupported_version",
            "rx_unknown_opcode",
            "rx_bad_crc",
            "rx_inconsistent_length",
            "rx_invalid_field",
            "rx_unknown_connection",
            "rx_unexpected_source",
            "rx_invalid_path",
            "rx_duplicate",
            "rx_stale",
            "rx_out_of_window",
            "rx_ce_marked",
            "reject_remote_access",
            "reject_bounds",
            "reject_receiver_not_ready",
            "reject_message_too_long",
            "reject_invalid_request",
            "tx_data_packets",
            "tx_retransmissions",
            "rto_expirations",
            "repaths");

    private final Endpoint endpoint;
    private final Supplier<Map<String, Long>> extraCounters;
    private Map<String, Long> baseline = Map.of();

    CounterReport(final Endpoint endpoint, final Supplier<Map<String, Long>> extraCounters) {
        this.endpoint = endpoint;
        this.extraCounters = extraCounters;
    }

    /** The {@code read_counters} result. */
    ObjectNode read() {
        final ObjectNode result = Envelope.JSON.objectNode();
        final ObjectNode counters = result.putObject("counters");
        // Defect COUNTER_MISSING: the device leaves out a standard counter it must report (clause 12.1.4).
        final boolean counterMissing = endpoint.config().defects().has(org.mrconf.defect.Defect.COUNTER_MISSING);
        for (final Map.Entry<String, Long> counter : raw().entrySet()) {
            if (counterMissing && counter.getKey().equals("rx_unexpected_source")) {
                continue;
            }
            counters.put(counter.getKey(), counter.getValue() - baseline.getOrDefault(counter.getKey(), 0L));
        }
        return result;
    }

    /** Counts from now on ({@code reset}). */
    void rebase() {
        baseline = raw();
    }

    private Map<String, Long> raw() {
        final Map<String, Long> raw = new TreeMap<>();
        for (final Counter counter : Counter.values()) {
            raw.put(
                    name(counter.name().toLowerCase(Locale.ROOT)),
                    endpoint.counters().get(counter));
        }
        for (final Map.Entry<String, Long> extra : extraCounters.get().entrySet()) {
            raw.merge(name(extra.getKey()), extra.getValue(), Long::sum);
        }
        return raw;
    }

    /** The protocol name of a counter: standard names as they are, every other one with {@code x_}. */
    static String name(final String name) {
        return STANDARD.contains(name) || name.startsWith("x_") ? name : "x_" + name;
    }
}
