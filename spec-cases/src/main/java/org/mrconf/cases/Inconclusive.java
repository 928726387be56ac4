package org.mrconf.cases;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;
import org.opentest4j.TestAbortedException;

/**
 * Thrown by a case when the tester cannot decide: its timestamps are too coarse for the declared tolerance, a timer
 * fired that the case does not control, the link dropped what the case needed. The runner reports INCONCLUSIVE,
 * never FAIL, because a false FAIL against a vendor's NIC is the worst thing this suite can produce.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Inconclusive extends TestAbortedException {
    private static final long serialVersionUID = 1L;

    private Inconclusive(final String message) {
        super(message);
    }

    /** The case cannot decide, for this reason (say what was observed and what would be needed). */
    public static Inconclusive because(final String reason) {
        return new Inconclusive(reason);
    }
}
