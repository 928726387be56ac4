package org.mrconf.vectors;

import org.opentest4j.TestAbortedException;

/**
 * A vector whose condition the device's legal configuration kept from arising (its declared windows, or a sender
 * keeping fewer packets in flight than they allow, section 10): nothing is judged, and the verdict is NOT_APPLICABLE,
 * never INCONCLUSIVE. The vector case turns it into {@code org.mrconf.cases.NotApplicable}; this package stays below
 * the cases.
 */
public final class VectorNotApplicable extends TestAbortedException {
    private static final long serialVersionUID = 1L;

    private VectorNotApplicable(final String reason) {
        super(reason);
    }

    /** Not applicable, for {@code reason}, which names the configuration and what would exercise the vector. */
    public static VectorNotApplicable because(final String reason) {
        return new VectorNotApplicable(reason);
    }
}
