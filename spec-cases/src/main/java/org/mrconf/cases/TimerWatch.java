package org.mrconf.cases;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Map;
import org.apiguardian.api.API;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.DutCounters;
import org.mrconf.peer.PacketMatcher;

/**
 * Whether a retransmission timer of the DUT expired since the watch began: its {@code rto_expirations} counter grew,
 * or it retransmitted a data packet. A case whose judgement rests on windows or RTTs the tester set up uses it to tell
 * a timer it does not control (an expiry collapses a window, clause 10.1.3, and resends on its own) from what it
 * judges: such an expiry makes the attempt undecided, never a failure.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class TimerWatch {
    private final Testbed testbed;
    private final Map<String, Long> before;
    private final int mark;

    private TimerWatch(final Testbed testbed, final Map<String, Long> before, final int mark) {
        this.testbed = testbed;
        this.before = before;
        this.mark = mark;
    }

    /** Starts watching now. */
    public static TimerWatch start(final Testbed testbed) throws DutControlException {
        return new TimerWatch(testbed, testbed.counters(), testbed.peer().mark());
    }

    /** Whether a timer expired since {@link #start}. */
    public boolean expired() throws DutControlException {
        return counted()
                || !testbed.peer()
                        .recorder()
                        .matching(mark, PacketMatcher.expect().data().retransmission())
                        .isEmpty();
    }

    /** Whether the {@code rto_expirations} counter grew since {@link #start} (resends for gaps leave it alone). */
    public boolean counted() throws DutControlException {
        return testbed.grew(before, DutCounters.RTO_EXPIRATIONS) > 0;
    }
}
