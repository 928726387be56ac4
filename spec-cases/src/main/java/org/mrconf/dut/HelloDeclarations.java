package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The declarations {@code hello} carries besides the claims (spec clause 12.1.5): the loss-detection tolerance and
 * the test parameters, which the tester judges by when no declaration file is given.
 *
 * @param reorderTolerance clause 6.3.3; {@link DeviceDeclaration.ReorderTolerance#NONE} when {@code hello} gives none
 * @param timers           the declared timers and their tolerance, when {@code hello} gives {@code parameters}
 * @param congestion       clause 12.1.6, when {@code hello} gives its four congestion fields
 */
@API(status = MAINTAINED, since = "0.1")
public record HelloDeclarations(
        DeviceDeclaration.ReorderTolerance reorderTolerance,
        Optional<DeviceDeclaration.Timers> timers,
        Optional<DeviceDeclaration.Congestion> congestion) {
    /** What a {@code hello} that gives no declarations beyond the claims stands for. */
    public static final HelloDeclarations NONE =
            new HelloDeclarations(DeviceDeclaration.ReorderTolerance.NONE, Optional.empty(), Optional.empty());

    public HelloDeclarations {
        Objects.requireNonNull(reorderTolerance, "reorderTolerance");
        Objects.requireNonNull(timers, "timers");
        Objects.requireNonNull(congestion, "congestion");
    }

    /** Reads {@code result.reorderTolerance} and {@code result.parameters} of a {@code hello} answer. */
    static HelloDeclarations read(final ObjectNode result) throws JsonFields.FieldException {
        DeviceDeclaration.ReorderTolerance tolerance = DeviceDeclaration.ReorderTolerance.NONE;
        if (JsonFields.has(result, "reorderTolerance")) {
            final ObjectNode node = JsonFields.object(result, "result", "reorderTolerance");
            final String at = "result.reorderTolerance";
            tolerance = new DeviceDeclaration.ReorderTolerance(
                    (int) JsonFields.integer(node, at, "packets", 0, 3),
                    Duration.ofNanos(JsonFields.integer(node, at, "timeNs", 0, Long.MAX_VALUE)));
        }
        if (!JsonFields.has(result, "parameters")) {
            return new HelloDeclarations(tolerance, Optional.empty(), Optional.empty());
        }
        final ObjectNode p = JsonFields.object(result, "result", "parameters");
        final String at = "result.parameters";
        final DeviceDeclaration.Timers timers = new DeviceDeclaration.Timers(
                nanos(p, at, "minRtoNs"),
                nanos(p, at, "initialRtoNs"),
                nanos(p, at, "maxRtoNs"),
                nanos(p, at, "ackDelayNs"),
                (int) JsonFields.integer(p, at, "ackCoalescingCount", 1, Integer.MAX_VALUE),
                (int) JsonFields.integer(p, at, "unhealthyAfterTimeouts", 1, Integer.MAX_VALUE),
                nanos(p, at, "connectionTimeoutNs"),
                nanos(p, at, "timerToleranceNs"),
                JsonFields.has(p, "receiverNotReadyRetryUs")
                        ? Optional.of(Duration.ofNanos(
                                JsonFields.integer(p, at, "receiverNotReadyRetryUs", 1, Long.MAX_VALUE / 1000) * 1000))
                        : Optional.empty());
        Optional<DeviceDeclaration.Congestion> congestion = Optional.empty();
        if (JsonFields.has(p, "decreaseFactor")
                || JsonFields.has(p, "linkRateBitsPerSecond")
                || JsonFields.has(p, "targetUtilization")
                || JsonFields.has(p, "rateHintIntervalNs")) {
            // Clause 12.1.6: the four come together. The declaration file counts Mbit/s; hello bit/s. The first windows
            // are optional here: a hello without them leaves them undeclared (0), for the case to report.
            final java.util.Set<String> undeclared = new java.util.TreeSet<>();
            final int pathWindow = JsonFields.has(p, "initialPathWindowPackets")
                    ? (int) JsonFields.integer(p, at, "initialPathWindowPackets", 1, 256)
                    : 0;
            final int connectionWindow = JsonFields.has(p, "initialConnectionWindowPackets")
                    ? (int) JsonFields.integer(p, at, "initialConnectionWindowPackets", 1, Integer.MAX_VALUE)
                    : 0;
            if (pathWindow == 0) {
                undeclared.add("initialPathWindowPackets");
            }
            if (connectionWindow == 0) {
                undeclared.add("initialConnectionWindowPackets");
            }
            final Duration hintInterval = nanos(p, at, "rateHintIntervalNs");
            // Optional (spec Table 12-2): absent, the hint interval.
            final Duration activeWindow =
                    JsonFields.has(p, "rateHintActiveWindowNs") ? nanos(p, at, "rateHintActiveWindowNs") : hintInterval;
            if (activeWindow.compareTo(hintInterval) < 0) {
                throw new JsonFields.FieldException(
                        at + ".rateHintActiveWindowNs",
                        "must be at least rateHintIntervalNs (spec clause 8.2.4): " + activeWindow.toNanos());
            }
            // Optional (spec clause 10.1.2, Table 12-2): absent, no maximum.
            final int maxConnectionWindow = JsonFields.has(p, "maxConnectionWindowPackets")
                    ? (int) JsonFields.integer(p, at, "maxConnectionWindowPackets", 1, Integer.MAX_VALUE)
                    : 0;
            if (maxConnectionWindow > 0 && maxConnectionWindow < connectionWindow) {
                throw new JsonFields.FieldException(
                        at + ".maxConnectionWindowPackets",
                        "must be at least initialConnectionWindowPackets (spec clause 10.1.2): " + maxConnectionWindow);
            }
            congestion = Optional.of(new DeviceDeclaration.Congestion(
                    exclusive(p, at, "decreaseFactor"),
                    JsonFields.integer(p, at, "linkRateBitsPerSecond", 1_000_000, Long.MAX_VALUE) / 1_000_000,
                    JsonFields.number(p, at, "targetUtilization", Double.MIN_VALUE, 1),
                    hintInterval,
                    pathWindow,
                    connectionWindow,
                    undeclared,
                    activeWindow,
                    maxConnectionWindow));
        }
        return new HelloDeclarations(tolerance, Optional.of(timers), congestion);
    }

    private static Duration nanos(final ObjectNode node, final String at, final String name)
            throws JsonFields.FieldException {
        return Duration.ofNanos(JsonFields.integer(node, at, name, 0, Long.MAX_VALUE));
    }

    /** A factor strictly between 0 and 1 (clause 10.1.1). */
    private static double exclusive(final ObjectNode node, final String at, final String name)
            throws JsonFields.FieldException {
        final double value = JsonFields.number(node, at, name, 0, 1);
        if (value <= 0 || value >= 1) {
            throw new JsonFields.FieldException(JsonFields.path(at, name), "must be above 0 and below 1, not " + value);
        }
        return value;
    }
}
