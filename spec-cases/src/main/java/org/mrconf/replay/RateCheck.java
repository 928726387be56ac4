package org.mrconf.replay;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.StallAllowance;
import org.mrconf.peer.StallMonitor;
import org.opentest4j.TestAbortedException;

/**
 * Clause 10.1.4 for a check step's {@code rateWithinHint} ({@link Sidecar.Check#rateWithinHintMs()}): the DUT's
 * data packets, retransmissions included, keep to the latest rate hint over an interval that the DUT's own transmit
 * timestamps measure, so that a tester slow to read them cannot make them look bunched up. The interval starts at the
 * first data packet that arrives after the check begins; it is judged once a packet stamped past its end arrives, or
 * as soon as what the DUT sent within it already exceeds the allowance, or at {@link VectorReplay#LIMIT}. An excess
 * no larger than what the hinted rate sends in the tester host's longest stall of the interval is INCONCLUSIVE
 * ({@link StallAllowance}).
 */
final class RateCheck {
    private static final long POLL_MS = 5;

    private RateCheck() {}

    /**
     * Judges the interval; {@code sent} gives every data packet and READ_REQUEST of the vector's connection in arrival
     * order, and {@code from} is how many of them had arrived when the check began.
     */
    static void judge(
            final Supplier<List<ReceivedPacket>> sent,
            final int from,
            final long hintMbps,
            final Duration interval,
            final Optional<DeviceDeclaration.Timers> timers,
            final int mtu,
            final String at,
            final List<String> failures,
            final StallMonitor stalls)
            throws InterruptedException {
        if (timers.isEmpty() || mtu <= 0) {
            throw new TestAbortedException(
                    "the device declares no timer tolerance or MTU, so the rate allowance of 10.1.4 is unknown");
        }
        final long windowNs = interval.toNanos();
        final double allowedBytes =
                hintMbps * 1e6 / 8 * ((windowNs + timers.get().tolerance().toNanos()) / 1e9) + 4.0 * mtu;
        final long deadlineNs = System.nanoTime() + VectorReplay.LIMIT.toNanos();
        while (true) {
            final List<ReceivedPacket> packets = sent.get();
            if (packets.size() > from) {
                final long firstStamp = stamp(packets.get(from));
                long bytes = 0;
                boolean past = false;
                for (final ReceivedPacket packet : packets.subList(from, packets.size())) {
                    final long since = Psn.distance(firstStamp, stamp(packet));
                    if (since < windowNs) {
                        bytes += packet.captured().length();
                    } else if (since < 1L << 31) {
                        past = true;
                    }
                }
                if (bytes > allowedBytes) {
                    // A pace over the hint by no more than the hinted rate sends in the host's longest stall of the
                    // interval may be a pacer catching up after the host held it back.
                    final long overNs = (long) Math.ceil((bytes - allowedBytes) * 8 / (hintMbps * 1e6) * 1e9);
                    StallAllowance.excuse(
                            stalls,
                            at + ": 10.1.4: " + bytes + " bytes within " + interval.toMillis() + " ms under a rate hint"
                                    + " of " + hintMbps + " Mbit/s (over the allowance by the hinted rate's "
                                    + overNs / 1000 + " us)",
                            overNs,
                            packets.get(from).receivedNs(),
                            packets.get(packets.size() - 1).receivedNs());
                    failures.add(String.format(
                            "%s: the DUT sent %d bytes within %d ms of its own clock under a rate hint of %d Mbit/s;"
                                    + " 10.1.4: at most %.0f (the hint over the interval and the declared tolerance,"
                                    + " plus four packets of its MTU)",
                            at, bytes, interval.toMillis(), hintMbps, allowedBytes));
                    return;
                }
                if (past) {
                    return;
                }
            }
            if (System.nanoTime() - deadlineNs > 0) {
                if (packets.size() <= from) {
                    throw new TestAbortedException(
                            "the DUT sent no data packet after the check began, so its pace cannot be judged");
                }
                return; // it sent less than the allowance over all it sent: within the hint
            }
            Thread.sleep(POLL_MS);
        }
    }

    private static long stamp(final ReceivedPacket packet) {
        return packet.data().orElseThrow().transmitTimestamp();
    }
}
