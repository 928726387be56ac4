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
import org.mrconf.wire.DataPacket;
import org.opentest4j.TestAbortedException;

/**
 * Clause 6.6.1 from one RTT sample ({@link Sidecar.Check#rtoFollowsEcho()}): before the tester held its ACKs back, the
 * DUT sent exactly one data packet, which the tester acknowledged with an echo {@code echoAge} older than its transmit
 * timestamp. That one sample R makes SRTT = R and RTTVAR = R / 2 (RFC 6298 section 2), so the RTO of the next packet is
 * clamp(3R) to the declared [minimum, maximum] RTO, and its first resend comes that long after it.
 *
 * <p>R is bounded on the DUT's own clock, so a slow tester cannot move it: at least the echo age E (the ACK came after
 * the packet), at most E plus the time from the first packet's transmit timestamp t1 to the next packet's T2 (the DUT
 * took the sample before it sent that packet, which it was asked to post only once the first completed). The interval
 * from T2 to the resend fails below clamp(3E) less the declared tolerance, or above twice clamp(3(E + T2 - t1)) plus
 * the tolerance (the same allowance {@code TimerCase} gives), only when the DUT's transmit timestamps and the tester's
 * arrival times agree, and by more than the tester host's longest stall in the interval ({@link StallAllowance}). A
 * DUT that ignores the echo samples the true round trip, far shorter, and resends long before
 * 3E.
 */
final class RttEstimateCheck {
    private static final long POLL_MS = 5;

    private RttEstimateCheck() {}

    /**
     * Judges the first resend of the first packet sent at or after index {@code heldFrom} of {@code sent} (the DUT's
     * data packets in arrival order), with {@code echoAgeNs} the tester's echo age.
     */
    static void judge(
            final Supplier<List<ReceivedPacket>> sent,
            final int heldFrom,
            final long echoAgeNs,
            final Optional<DeviceDeclaration.Timers> declared,
            final String at,
            final List<String> failures,
            final StallMonitor stalls)
            throws InterruptedException {
        final DeviceDeclaration.Timers timers = declared.orElseThrow(() -> new TestAbortedException(
                at + ": the device declares no timers, so its RTO cannot be judged against its RTT estimate"));
        final List<ReceivedPacket> before = sent.get().subList(0, heldFrom);
        if (before.size() != 1 || echoAgeNs <= 0) {
            throw new TestAbortedException(String.format(
                    "%s: the DUT sent %d data packets before the hold (echo age %d ms); the check needs exactly one,"
                            + " acknowledged with an old echo, for exactly one RTT sample",
                    at, before.size(), echoAgeNs / 1_000_000));
        }
        final long tolerance = timers.tolerance().toNanos();
        final long lowest = clamp(timers, 3 * echoAgeNs) - tolerance;
        if (lowest <= clamp(timers, 0) + tolerance) {
            throw new TestAbortedException(at + ": the declared RTO bounds and tolerance leave no room between an RTO"
                    + " from an echo " + echoAgeNs / 1_000_000 + " ms old and the shortest one");
        }
        final Duration wait =
                timers.maxRto().multipliedBy(2).plus(timers.tolerance()).plus(VectorReplay.LIMIT);
        final ReceivedPacket[] pair = awaitFirstResend(sent, heldFrom, wait);
        if (pair == null) {
            throw new TestAbortedException(at + ": the DUT did not resend its packet within " + wait.toMillis()
                    + " ms of holding ACKs back, so its RTO was not shown");
        }
        final DataPacket first = before.get(0).data().orElseThrow();
        final DataPacket original = pair[0].data().orElseThrow();
        final DataPacket resend = pair[1].data().orElseThrow();
        final long gap = Psn.distance(first.transmitTimestamp(), original.transmitTimestamp());
        final long highest = 2 * clamp(timers, 3 * (echoAgeNs + gap)) + tolerance;
        final long byDut = Psn.distance(original.transmitTimestamp(), resend.transmitTimestamp());
        final long byTester = pair[1].receivedNs() - pair[0].receivedNs();
        // Both clocks must miss on the same side for a failure: the smaller miss is what a host stall must cover.
        StallAllowance.excuse(
                stalls,
                at + ": 6.6.1: the first resend of PSN " + original.header().psn(),
                Math.max(
                        StallAllowance.underNs(Math.max(byDut, byTester), lowest),
                        StallAllowance.overNs(Math.min(byDut, byTester), highest)),
                pair[0].receivedNs(),
                pair[1].receivedNs());
        if (byDut < lowest && byTester < lowest) {
            failures.add(String.format(
                    "%s: the DUT resent PSN %d %d us after sending it (%d us by the tester's clock), before the RTO"
                            + " its one RTT sample of at least %d ms gives, clamp(3 x RTT) less the tolerance = %d us;"
                            + " 6.6.1: samples are the current clock minus the ACK's echoed timestamp",
                    at, original.header().psn(), byDut / 1000, byTester / 1000, echoAgeNs / 1_000_000, lowest / 1000));
        } else if (byDut > highest && byTester > highest) {
            failures.add(String.format(
                    "%s: the DUT resent PSN %d %d us after sending it (%d us by the tester's clock), later than"
                            + " twice the RTO its one RTT sample of at most %d us gives plus the tolerance, %d us;"
                            + " 6.6.1, 6.6.2: the RTO is SRTT + 4 x RTTVAR from the samples",
                    at,
                    original.header().psn(),
                    byDut / 1000,
                    byTester / 1000,
                    (echoAgeNs + gap) / 1000,
                    highest / 1000));
        }
    }

    /** The first packet at or after {@code from} and its first copy, or null if none came within {@code wait}. */
    private static ReceivedPacket[] awaitFirstResend(
            final Supplier<List<ReceivedPacket>> sent, final int from, final Duration wait)
            throws InterruptedException {
        final long deadlineNs = System.nanoTime() + wait.toNanos();
        while (System.nanoTime() - deadlineNs < 0) {
            final List<ReceivedPacket> now = sent.get();
            if (now.size() > from) {
                final DataPacket original = now.get(from).data().orElseThrow();
                for (int i = from + 1; i < now.size(); i++) {
                    final DataPacket copy = now.get(i).data().orElseThrow();
                    if (copy.header().pathId() == original.header().pathId()
                            && copy.header().psn() == original.header().psn()) {
                        return new ReceivedPacket[] {now.get(from), now.get(i)};
                    }
                }
            }
            Thread.sleep(POLL_MS);
        }
        return null;
    }

    private static long clamp(final DeviceDeclaration.Timers timers, final long rtoNs) {
        return Math.max(timers.minRto().toNanos(), Math.min(timers.maxRto().toNanos(), rtoNs));
    }
}
