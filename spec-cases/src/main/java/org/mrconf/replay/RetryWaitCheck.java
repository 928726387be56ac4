package org.mrconf.replay;

import java.util.List;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.mrconf.dut.DutControl;
import org.mrconf.dut.DutControlException;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.StallAllowance;
import org.mrconf.peer.StallMonitor;
import org.mrconf.wire.DataPacket;
import org.opentest4j.TestAbortedException;

/**
 * The waits a NACK asks for before a resend. RECEIVER_NOT_READY (clause 9.1.9): a {@code nack} step with
 * {@code retryAfter} NACKs a PSN of the DUT's, and a {@code resentAfterRetry} check judges its resend.
 * PSN_OUT_OF_WINDOW (clause 9.1.11): a {@code notResentFor} check watches, while no ACK can move the window, for a
 * resend that comes too soon ({@link #judgeNotResent}). The DUT must resend the PSN on its path, and
 * not before retry-after has passed since it received the NACK, whatever a gap or its timer show meanwhile.
 *
 * <p>The tester measures from just before it sent the NACK to the resend's arrival, which is never shorter than the
 * DUT's own wait, so an interval below retry-after is a resend that came too early. The one thing that could look
 * alike is a resend the DUT sent before the NACK reached it (its timer, crossing the NACK on the wire; nothing else
 * makes it resend, since the tester showed no gap before the NACK): the tester ignores a copy that arrived before it
 * began to send the NACK, reads the DUT's {@code rto_expirations} just before that and again when an early copy
 * arrives, and judges that copy a failure only when no expiry came in between; otherwise it is INCONCLUSIVE. (On a
 * link in memory the DUT may answer the NACK before the tester's send returns, so a copy is not ignored for arriving
 * while the NACK was being sent.) A vector NACKs a packet that has just arrived, on a path whose timer it stretched,
 * so that no expiry can come so soon.
 */
final class RetryWaitCheck {
    private static final long POLL_MS = 5;

    private final StallMonitor stalls;
    private OptionalLong expirationsBefore = OptionalLong.empty();
    private Nacked nacked;

    /** A check that gives the host's stalls to the device ({@link StallAllowance}). */
    RetryWaitCheck(final StallMonitor stalls) {
        this.stalls = stalls;
    }

    /** The NACKed PSN, when the tester began to send the NACK (its link's clock) and what it asked for. */
    private record Nacked(int path, long psn, long beforeNs, long retryAfterNs) {}

    /** Right before the NACK: keeps the DUT's {@code rto_expirations}. */
    void beforeNack(final DutControl control) throws DutControlException {
        expirationsBefore = DutQuiet.rtoExpirations(control);
    }

    /** The tester began to send the NACK of {@code psn} on {@code path} at {@code beforeNs}. */
    void nacked(final int path, final long psn, final long beforeNs, final long retryAfterUs) {
        nacked = new Nacked(path, psn, beforeNs, retryAfterUs * 1_000);
    }

    /** Judges the resend (see the class comment); {@code nowNs} is the tester link's clock. */
    void judge(
            final Supplier<List<ReceivedPacket>> sent,
            final java.util.function.LongSupplier nowNs,
            final DutControl control,
            final String at,
            final List<String> failures)
            throws DutControlException, InterruptedException {
        final Nacked nack = nacked;
        final ReceivedPacket resend =
                awaitCopy(sent, nowNs, nack, nack.beforeNs() + nack.retryAfterNs() + VectorReplay.LIMIT.toNanos());
        final String what = String.format(
                "PSN %d of path %d, NACKed RECEIVER_NOT_READY with retry after %d us",
                nack.psn(), nack.path(), nack.retryAfterNs() / 1_000);
        if (resend == null) {
            failures.add(String.format(
                    "%s: 9.1.9: %s was never resent on its path, %d s past its retry-after",
                    at, what, VectorReplay.LIMIT.toSeconds()));
            return;
        }
        final long waitedNs = resend.receivedNs() - nack.beforeNs();
        if (waitedNs >= nack.retryAfterNs()) {
            return;
        }
        StallAllowance.excuse(
                stalls,
                at + ": 9.1.9: " + what,
                StallAllowance.underNs(waitedNs, nack.retryAfterNs()),
                nack.beforeNs(),
                resend.receivedNs());
        if (noExpirySinceTheNack(control)) {
            failures.add(String.format(
                    "%s: 9.1.9: %s was resent %d us after the tester sent the NACK, before the"
                            + " retry-after had passed (no timer expiry in between)",
                    at, what, waitedNs / 1_000));
            return;
        }
        throw new TestAbortedException(String.format(
                "%s: %s was resent %d us after the NACK, before its retry-after,"
                        + " but the DUT's timer expired meanwhile (or it reports no rto_expirations), so the resend"
                        + " may have crossed the NACK: 9.1.9 cannot be judged",
                at, what, waitedNs / 1_000));
    }

    /**
     * Clause 9.1.11: for {@code watchMs} after the NACK PSN_OUT_OF_WINDOW, with the tester's ACKs held back (the window
     * cannot move), no copy of the NACKed PSN may arrive unless the DUT's timer expired since just before the NACK.
     */
    void judgeNotResent(
            final Supplier<List<ReceivedPacket>> sent,
            final java.util.function.LongSupplier nowNs,
            final DutControl control,
            final long watchMs,
            final String at,
            final List<String> failures)
            throws DutControlException, InterruptedException {
        final Nacked nack = nacked;
        final ReceivedPacket copy = awaitCopy(sent, nowNs, nack, nack.beforeNs() + watchMs * 1_000_000);
        if (copy == null) {
            return;
        }
        final long afterNs = copy.receivedNs() - nack.beforeNs();
        if (noExpirySinceTheNack(control)) {
            failures.add(String.format(
                    "%s: 9.1.11: PSN %d of path %d, NACKed PSN_OUT_OF_WINDOW, was resent %d us after"
                            + " the tester sent the NACK, with no ACK that moved the window and no timer expiry in"
                            + " between",
                    at, nack.psn(), nack.path(), afterNs / 1_000));
            return;
        }
        throw new TestAbortedException(String.format(
                "%s: PSN %d of path %d, NACKed PSN_OUT_OF_WINDOW, was resent %d us"
                        + " after the NACK, but the DUT's timer expired meanwhile (or it reports no rto_expirations),"
                        + " which allows the resend: 9.1.11's wait cannot be judged",
                at, nack.psn(), nack.path(), afterNs / 1_000));
    }

    /** The first copy of the NACKed PSN, polled for until {@code untilNs} on the tester link's clock, or null. */
    private static ReceivedPacket awaitCopy(
            final Supplier<List<ReceivedPacket>> sent,
            final java.util.function.LongSupplier nowNs,
            final Nacked nack,
            final long untilNs)
            throws InterruptedException {
        ReceivedPacket copy = firstCopy(sent.get(), nack);
        while (copy == null && nowNs.getAsLong() - untilNs < 0) {
            Thread.sleep(POLL_MS);
            copy = firstCopy(sent.get(), nack);
        }
        return copy;
    }

    /** Whether the DUT's {@code rto_expirations} is known and has not changed since just before the NACK. */
    private boolean noExpirySinceTheNack(final DutControl control) throws DutControlException {
        return expirationsBefore.isPresent() && DutQuiet.rtoExpirations(control).equals(expirationsBefore);
    }

    /** The first copy of the NACKed PSN on its path (clause 6.4.2) that arrived once the NACK was being sent. */
    private static ReceivedPacket firstCopy(final List<ReceivedPacket> sent, final Nacked nack) {
        for (final ReceivedPacket packet : sent) {
            final DataPacket data = packet.data().orElseThrow();
            if (packet.receivedNs() - nack.beforeNs() >= 0
                    && data.header().psn() == nack.psn()
                    && data.header().pathId() == nack.path()) {
                return packet;
            }
        }
        return null;
    }
}
