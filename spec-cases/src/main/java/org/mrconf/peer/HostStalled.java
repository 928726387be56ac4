package org.mrconf.peer;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;
import org.opentest4j.TestAbortedException;

/**
 * INCONCLUSIVE because the host, not the device, may have made a timing check miss ({@link StallAllowance}). Unlike
 * other reasons to give up, this one is the host's passing state: an attempt on a new connection may meet no stall, so
 * a case whose attempts are each sound on their own tries again ({@link #retry}) before it gives up.
 */
@API(status = EXPERIMENTAL, since = "0.15")
public final class HostStalled extends TestAbortedException {
    private static final long serialVersionUID = 1L;

    public HostStalled(final String message) {
        super(message);
    }

    /** One attempt of a check, on its own connection. */
    @FunctionalInterface
    public interface Attempt {
        void run() throws Exception;
    }

    /**
     * Runs {@code attempt} up to {@code attempts} times while it ends in {@link HostStalled}: the first that passes or
     * fails decides (so another attempt can only decide what a stalled one could not, never turn a failure into a
     * pass). Any other outcome ends it at once. When every attempt stalled, INCONCLUSIVE names each one's stall.
     */
    public static void retry(final int attempts, final Attempt attempt) throws Exception {
        final List<String> stalled = new ArrayList<>();
        for (int i = 1; ; i++) {
            try {
                attempt.run();
                return;
            } catch (final HostStalled e) {
                stalled.add(e.getMessage());
                if (i >= attempts) {
                    throw stalled.size() == 1
                            ? e
                            : new HostStalled("each of " + attempts + " attempts met a host stall: "
                                    + String.join("; then ", stalled));
                }
            }
        }
    }
}
