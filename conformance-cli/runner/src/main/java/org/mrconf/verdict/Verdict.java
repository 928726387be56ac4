package org.mrconf.verdict;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;

/**
 * The outcome of a case or a clause. A clause takes the worst verdict of its cases in the order of {@link #severity()}:
 * FAIL > ERROR > INCONCLUSIVE > WARN > PASS; NOT_APPLICABLE only when every case of the clause is not applicable.
 */
@API(status = MAINTAINED, since = "0.1")
public enum Verdict {
    /** The device did what the clause requires. */
    PASS(0),
    /** A SHOULD clause was not met. It does not fail the run. */
    WARN(1),
    /** The tester could not decide (timestamps too coarse, a timer fired that the case does not control). */
    INCONCLUSIVE(2),
    /** The harness failed: the control channel or the link died, or the suite itself faulted. Never the device's fault. */
    ERROR(3),
    /** The device broke a MUST clause (or a declared SHOULD/MAY clause it claims). */
    FAIL(4),
    /** The clause does not apply to the device: an unclaimed profile or an undeclared optional clause. Never a pass. */
    NOT_APPLICABLE(-1);

    private final int severity;

    Verdict(final int severity) {
        this.severity = severity;
    }

    /** The rank used to combine verdicts; higher is worse. NOT_APPLICABLE ranks below everything. */
    public int severity() {
        return severity;
    }

    /** The worse of two verdicts; on a tie the first is kept, so the first reason survives. */
    public static Verdict worst(final Verdict a, final Verdict b) {
        return b.severity > a.severity ? b : a;
    }
}
