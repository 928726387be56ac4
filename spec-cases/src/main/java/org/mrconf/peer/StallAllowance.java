package org.mrconf.peer;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Locale;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The one rule every timing check of the suite follows on a loaded host: a measured delay (a timer's interval, a
 * pace, a quiet time) that misses its bound by no more than the longest scheduling stall the {@link StallMonitor} saw
 * in the measuring window is INCONCLUSIVE, with the stall named; the host, not the device, may have made it miss. A
 * miss larger than the stall stays a FAIL, as does a miss in a window without a stall.
 *
 * <p>A stall can move a measurement either way: it delays a timer (of the tester, or of an embedded reference in the
 * same JVM) and a receive timestamp alike, so a late first timestamp shortens an interval as much as a late second
 * one lengthens it. The rule therefore takes the miss on either side of the bound.
 *
 * <p>The monitor cannot see every stall: its thread sleeps, and a host scheduler favours a thread that sleeps over one
 * that works, such as the case's own. So a case reads the tester's clock on the side of the packet that keeps its
 * bound sound: for an upper bound on what the DUT does after a packet of the tester's (a resend within some time of
 * an ACK), it reads the clock after the send returns, since the DUT cannot act on a packet it has not been sent; for a
 * lower bound (not before a retry-after), it reads the clock before the send, since the DUT cannot have had it
 * earlier. Under a 2-thread CPU hog the tester's thread was once held back 32 ms between the two readings, which the
 * monitor did not see.
 *
 * <pre>{@code
 * long miss = StallAllowance.missNs(measured, lowest, highest);
 * StallAllowance.excuse(stalls, "6.6.3: interval 2", miss, fromNs, toNs); // INCONCLUSIVE when the host may explain it
 * assertThat(measured).isBetween(lowest, highest);                         // otherwise judged as before
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.15")
public final class StallAllowance {
    private StallAllowance() {}

    /** How far {@code measuredNs} lies outside {@code [lowestNs, highestNs]}; 0 within it. */
    public static long missNs(final long measuredNs, final long lowestNs, final long highestNs) {
        if (measuredNs < lowestNs) {
            return lowestNs - measuredNs;
        }
        return measuredNs > highestNs ? measuredNs - highestNs : 0;
    }

    /** How far {@code measuredNs} lies above {@code highestNs}; 0 at or below it. */
    public static long overNs(final long measuredNs, final long highestNs) {
        return Math.max(0, measuredNs - highestNs);
    }

    /** How far {@code measuredNs} lies below {@code lowestNs}; 0 at or above it. */
    public static long underNs(final long measuredNs, final long lowestNs) {
        return Math.max(0, lowestNs - measuredNs);
    }

    /**
     * The rule's decision alone: the reason to give for INCONCLUSIVE when a miss of {@code missNs} is within a stall of
     * {@code stallNs}, empty when there is no miss or the miss is larger than the stall.
     */
    public static Optional<String> reason(final String what, final long missNs, final long stallNs) {
        if (missNs <= 0 || stallNs <= 0 || missNs > stallNs) {
            return Optional.empty();
        }
        return Optional.of(String.format(
                Locale.ROOT,
                "%s: the host stalled %s during the measurement; the measurement missed its bound by %s, no more than"
                        + " the stall, so the device's timing cannot be told from the host's; re-run on an idle host",
                what,
                millis(stallNs),
                millis(missNs)));
    }

    /**
     * Applies the rule to a check measured over {@code [fromNs, toNs]} on the monitor's clock: throws
     * INCONCLUSIVE ({@link HostStalled}) when {@code missNs} is positive and no larger than the longest stall
     * of that window; returns otherwise, and the check then judges as it would without the rule.
     */
    public static void excuse(
            final StallMonitor stalls, final String what, final long missNs, final long fromNs, final long toNs) {
        if (missNs <= 0) {
            return;
        }
        final Optional<String> reason =
                reason(what, missNs, stalls.longestStallNs(Math.min(fromNs, toNs), Math.max(fromNs, toNs)));
        if (reason.isPresent()) {
            throw new HostStalled(reason.get());
        }
    }

    /**
     * The same rule for a silence a verdict rests on (the device sent nothing for {@code quietNs}, so its window is
     * full): the silence from {@code fromNs} to {@code nowNs} counts only net of the host's longest stall in it, since
     * a device the host held back was not silent by choice. A caller keeps waiting until this holds, so a stall delays
     * the verdict instead of deciding it.
     */
    public static boolean quietFor(final StallMonitor stalls, final long fromNs, final long nowNs, final long quietNs) {
        final long silenceNs = nowNs - fromNs;
        return silenceNs >= quietNs && silenceNs - stalls.longestStallNs(fromNs, nowNs) >= quietNs;
    }

    /** A duration as milliseconds with one decimal, e.g. {@code 102.4 ms}. */
    static String millis(final long nanos) {
        return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
    }
}
