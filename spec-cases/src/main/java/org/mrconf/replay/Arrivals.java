package org.mrconf.replay;

import java.util.List;
import java.util.Map;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.DutControl;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.DutCounters;
import org.mrconf.peer.ReceivedPacket;

/**
 * Whether everything a vector expects to see has come: at least {@code atLeast} of each expected response, every
 * expected completion, every counter grown by its expected amount, every region holding its expected bytes. Replay
 * ends its wait only when the DUT is quiet and this holds, or when the DUT has been silent for
 * {@link VectorReplay#patience(java.time.Duration)} (at least 1 s) with something still missing, so a DUT that is
 * merely slow, on a loaded host, is not judged before its answer is in: the quiet window then only bounds how long
 * replay watches for what must not happen.
 *
 * <p>Nothing here judges: a short count or a wrong byte after the limit is reported by the checks that follow, with
 * the same words as before.
 */
final class Arrivals {
    private final Sidecar.Expect expect;
    private final long initialPsn;
    private final DutControl control;
    private final Map<String, Long> before;
    private final Map<String, PlaceholderRewriter.ActualRegion> regions;

    Arrivals(
            final Sidecar.Expect expect,
            final long initialPsn,
            final DutControl control,
            final Map<String, Long> before,
            final Map<String, PlaceholderRewriter.ActualRegion> regions) {
        this.expect = expect;
        this.initialPsn = initialPsn;
        this.control = control;
        this.before = before;
        this.regions = regions;
    }

    /** Whether every expected response, completion, counter growth and region content is there now. */
    boolean allCame(final List<ReceivedPacket> answers, final List<DutCompletion> completions)
            throws DutControlException {
        for (final Sidecar.ResponseExpectation response : expect.responses()) {
            if (answers.stream()
                            .filter(p -> ResponseChecks.matches(response, p, initialPsn))
                            .count()
                    < response.atLeast()) {
                return false;
            }
        }
        return OutcomeChecks.allSeen(expect, completions) && countersGrew() && regionsHold();
    }

    private boolean countersGrew() throws DutControlException {
        if (expect.counters().isEmpty()) {
            return true;
        }
        final Map<String, Long> now = control.readCounters();
        for (final Sidecar.CounterExpectation counter : expect.counters()) {
            if (!now.containsKey(counter.name())) {
                continue; // an unreported counter makes the vector INCONCLUSIVE in the check, not a longer wait
            }
            final long grown = DutCounters.delta(before, now, counter.name());
            final long wanted =
                    Math.max(counter.delta().orElse(0), counter.atLeast().orElse(0));
            if (grown < wanted) {
                return false;
            }
        }
        return true;
    }

    private boolean regionsHold() throws DutControlException {
        for (final Sidecar.RegionContent content : expect.regions()) {
            final PlaceholderRewriter.ActualRegion region = regions.get(content.region());
            final byte[] bytes =
                    control.readRegion(region.key(), region.address() + content.offset(), content.length());
            if (!OutcomeChecks.holds(content, bytes)) {
                return false;
            }
        }
        return true;
    }
}
