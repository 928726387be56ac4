package org.mrconf.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apiguardian.api.API;

/**
 * A request, from another thread, that a run start no further case, and a way to wait for the case in flight.
 *
 * <p>{@code metaroce run}'s SIGINT hook uses it: the hook runs on its own thread while the cases' thread goes on, so
 * it must stop the cases before it resets the device, or a case that was in flight re-creates its connection on a
 * device that was just reset. The runner attaches the run's session when it starts: a stop requested earlier takes
 * effect then.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class RunStop {
    private String reason;
    /** The sessions of the run's lanes (one, or two in a {@link LanedRun}). */
    private final List<Consumer<String>> sessions = new ArrayList<>();

    private int casesInFlight;

    /** Asks the run to start no further case: every case not yet started is ERROR with {@code why}. */
    public synchronized void request(final String why) {
        if (reason == null) {
            reason = why;
            sessions.forEach(session -> session.accept(why));
        }
    }

    /** Why the run was stopped, if it was. */
    public synchronized Optional<String> reason() {
        return Optional.ofNullable(reason);
    }

    /**
     * Waits until no case is running, at most {@code timeout}; true when none is. A case that does not end in time is
     * left running: the caller cleans up anyway, and says so.
     */
    public synchronized boolean awaitIdle(final Duration timeout) throws InterruptedException {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (casesInFlight > 0) {
            final long leftNs = deadline - System.nanoTime();
            if (leftNs <= 0) {
                return false;
            }
            wait(Math.max(1, leftNs / 1_000_000));
        }
        return true;
    }

    /** The runner attaches the session's {@code markLost} when it starts (each lane its own). */
    synchronized void attach(final Consumer<String> markLost) {
        sessions.add(markLost);
        if (reason != null) {
            markLost.accept(reason);
        }
    }

    synchronized void detach(final Consumer<String> markLost) {
        sessions.remove(markLost);
    }

    synchronized void caseStarted() {
        casesInFlight++;
    }

    synchronized void caseEnded() {
        casesInFlight = Math.max(0, casesInFlight - 1);
        notifyAll();
    }
}
