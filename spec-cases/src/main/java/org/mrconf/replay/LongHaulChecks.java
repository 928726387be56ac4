package org.mrconf.replay;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.StallAllowance;
import org.mrconf.peer.StallMonitor;
import org.mrconf.wire.DataPacket;
import org.opentest4j.TestAbortedException;

/**
 * Clause 6.6.5 as a vector judges it ({@link Sidecar.Check#longHaulTimers()}, {@link
 * Sidecar.Check#noSpuriousResend()}): the timers a device claiming long-haul declares suit a 10 ms path, and packets
 * whose ACKs come back within that round trip are never resent. The same judgement as {@code LongHaulCase}, so that a
 * vector and the case cannot disagree.
 */
final class LongHaulChecks {
    /** The path round-trip time clause 6.6.5 is written for. */
    static final Duration LONG_HAUL_RTT = Duration.ofMillis(10);

    private static final Duration MAX_OF_MIN_RTO = Duration.ofMillis(20);
    private static final Duration MIN_OF_MAX_RTO = Duration.ofSeconds(1);

    private LongHaulChecks() {}

    /** The declared timers allow a 10 ms path and back off far enough (without declared timers: INCONCLUSIVE). */
    static void declaredTimers(
            final Optional<DeviceDeclaration.Timers> declared, final String at, final List<String> failures) {
        final DeviceDeclaration.Timers timers = declared.orElseThrow(() ->
                new TestAbortedException(at + ": the device declares no timers, so clause 6.6.5's cannot be judged"));
        if (timers.maxRto().compareTo(MIN_OF_MAX_RTO) < 0) {
            failures.add(String.format(
                    "%s: the declared maximum RTO is %d ms; 6.6.5: a device claiming long-haul declares at least 1 s",
                    at, timers.maxRto().toMillis()));
        }
        if (timers.minRto().compareTo(MAX_OF_MIN_RTO) > 0) {
            failures.add(String.format(
                    "%s: the declared minimum RTO is %d us; 6.6.5: a device claiming long-haul declares at most 20 ms",
                    at, timers.minRto().toNanos() / 1000));
        }
        if (timers.initialRto().compareTo(LONG_HAUL_RTT.plus(timers.tolerance())) <= 0) {
            failures.add(String.format(
                    "%s: the declared initial RTO is %d us; 6.6.5: a device claiming long-haul declares one longer"
                            + " than 10 ms plus its tolerance of %d us",
                    at, timers.initialRto().toNanos() / 1000, timers.tolerance().toNanos() / 1000));
        }
    }

    /**
     * No packet the DUT sent during the hold (from index {@code heldFrom} of {@code sent}) was resent before its timer
     * could be due: its ACK came back within the round trip the tester gave it, and the hold began before any ACK, so
     * the timer runs from the declared initial RTO. A resend (a PSN sent twice on its path) fails when it came less
     * than the initial RTO less the tolerance after the packet's first transmission by both clocks, the tester's
     * arrival times and the DUT's own transmit timestamps; one that either clock puts later may be the timer's
     * (INCONCLUSIVE), whenever the ACK reached the DUT. {@code answeredAfterNs} (when the tester's ACKs left, after the
     * first held packet arrived) goes into the messages.
     */
    static void noSpuriousResend(
            final List<ReceivedPacket> sent,
            final int heldFrom,
            final long answeredAfterNs,
            final Optional<DeviceDeclaration.Timers> declared,
            final String at,
            final List<String> failures,
            final StallMonitor stalls) {
        final Map<String, ReceivedPacket> originals = new HashMap<>();
        for (final ReceivedPacket packet : sent.subList(Math.min(heldFrom, sent.size()), sent.size())) {
            final DataPacket data = packet.data().orElseThrow();
            final String key = data.header().pathId() + "/" + data.header().psn();
            final ReceivedPacket original = originals.putIfAbsent(key, packet);
            if (original == null) {
                continue;
            }
            final DeviceDeclaration.Timers timers = declared.orElseThrow(() -> new TestAbortedException(at + ": the DUT"
                    + " resent a packet, and without declared timers it cannot be told whether its timer was due"));
            final long dueNs = timers.initialRto().minus(timers.tolerance()).toNanos();
            final long byTester = packet.receivedNs() - original.receivedNs();
            final long byDut =
                    (data.transmitTimestamp() - original.data().orElseThrow().transmitTimestamp()) & 0xFFFF_FFFFL;
            if (Math.max(byTester, byDut) >= dueNs) {
                throw new TestAbortedException(String.format(
                        "%s: the DUT resent PSN %d %d us after its first transmission (%d us by its timestamps), not"
                                + " before the declared initial RTO of %d ms less the tolerance, so it may be its"
                                + " timer's due (the tester's ACKs left %d us after the first packet)",
                        at,
                        data.header().psn(),
                        byTester / 1000,
                        byDut / 1000,
                        timers.initialRto().toMillis(),
                        answeredAfterNs / 1000));
            }
            StallAllowance.excuse(
                    stalls,
                    at + ": 6.6.5: the resend of PSN " + data.header().psn(),
                    StallAllowance.underNs(Math.max(byTester, byDut), dueNs),
                    original.receivedNs(),
                    packet.receivedNs());
            failures.add(String.format(
                    "%s: the DUT resent PSN %d on path %d %d us after its first transmission (%d us by its"
                            + " timestamps), before its timer could be due (the declared initial RTO of %d ms less the"
                            + " tolerance of %d ms), with no gap or NACK to ask for it; the tester's ACKs left %d us"
                            + " after the first packet. 6.6.5: a packet whose ACK comes within a 10 ms round trip is"
                            + " not retransmitted",
                    at,
                    data.header().psn(),
                    data.header().pathId(),
                    byTester / 1000,
                    byDut / 1000,
                    timers.initialRto().toMillis(),
                    timers.tolerance().toMillis(),
                    answeredAfterNs / 1000));
            return;
        }
    }
}
