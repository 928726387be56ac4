package org.mrconf.replay;

import org.opentest4j.TestAbortedException;

/**
 * A vector whose condition the device's legal configuration kept from arising (its declared windows, or a sender
 * keeping fewer packets in flight than they allow, section 10): nothing is judged, and the verdict is NOT_APPLICABLE,
 * never INCONCLUSIVE. The vector case turns it into {@code org.mrconf.cases.NotApplicable}; this package stays below
 * the cases.
 */
public final class VectorNotApplicable extends TestAbortedException {
    private static final long serialVersionUID = 1L;

    /** Whether another attempt may see the condition arise (a timer may have been what kept it from arising). */
    private final boolean worthAnotherAttempt;

    private VectorNotApplicable(final String reason, final boolean worthAnotherAttempt) {
        super(reason);
        this.worthAnotherAttempt = worthAnotherAttempt;
    }

    /** Not applicable, for {@code reason}, which names the configuration and what would exercise the vector. */
    public static VectorNotApplicable because(final String reason) {
        return new VectorNotApplicable(reason, false);
    }

    /**
     * Not applicable for {@code reason} unless another attempt says otherwise: the device's legal choice may explain
     * it, and so may a timer of the device's that the tester does not control. The vector is replayed while attempts
     * remain; the last attempt's verdict stands.
     */
    public static VectorNotApplicable unlessAnotherAttemptDecides(final String reason) {
        return new VectorNotApplicable(reason, true);
    }

    /** Whether the vector is worth another attempt before this verdict stands. */
    public boolean worthAnotherAttempt() {
        return worthAnotherAttempt;
    }
}
