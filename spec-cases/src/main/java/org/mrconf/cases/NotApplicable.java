package org.mrconf.cases;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;
import org.opentest4j.TestAbortedException;

/**
 * Thrown where a check cannot be disabled before it starts (a test vector, discovered at run time) and turns out not to
 * apply to the device: it needs a profile the device does not claim. The runner reports NOT_APPLICABLE, never PASS.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class NotApplicable extends TestAbortedException {
    private static final long serialVersionUID = 1L;

    private NotApplicable(final String message) {
        super(message);
    }

    public static NotApplicable because(final String reason) {
        return new NotApplicable(reason);
    }
}
