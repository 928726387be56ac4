package org.mrconf.replay;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.mrconf.dut.DutControl;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.DutCounters;
import org.mrconf.peer.ReceivedPacket;

/**
 * Waits for a quiet DUT before a step whose judgement must not be crossed by a resend of the DUT's timer: until
 * neither its {@code rto_expirations} counter nor its packets have changed for {@link #SETTLE}, so that a resend of an
 * expiry counted before has arrived by then. A check reads the counter again afterwards: unchanged, no expiry came in
 * between.
 */
final class DutQuiet {
    /** How long the DUT must send nothing and count no expiry: a resend already on its way arrives by then. */
    static final Duration SETTLE = Duration.ofMillis(50);

    private DutQuiet() {}

    /**
     * Waits until the DUT is quiet (at most {@link VectorReplay#LIMIT}) and returns its {@code rto_expirations}, or
     * empty when it reports no such counter. {@code sent} is what the DUT sent so far.
     */
    static OptionalLong settle(final Supplier<List<ReceivedPacket>> sent, final DutControl control)
            throws DutControlException, InterruptedException {
        final long deadlineNs = System.nanoTime() + VectorReplay.LIMIT.toNanos();
        OptionalLong expirations = rtoExpirations(control);
        int count = sent.get().size();
        while (true) {
            Thread.sleep(SETTLE.toMillis());
            final OptionalLong nowExpirations = rtoExpirations(control);
            final int nowCount = sent.get().size();
            if ((nowExpirations.equals(expirations) && nowCount == count) || System.nanoTime() - deadlineNs > 0) {
                return expirations;
            }
            expirations = nowExpirations;
            count = nowCount;
        }
    }

    /** The DUT's {@code rto_expirations}, or empty when it reports no such counter. */
    static OptionalLong rtoExpirations(final DutControl control) throws DutControlException {
        final Long value = control.readCounters().get(DutCounters.RTO_EXPIRATIONS);
        return value == null ? OptionalLong.empty() : OptionalLong.of(value);
    }
}
