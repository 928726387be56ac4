package org.mrconf.cases;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Optional;
import org.apiguardian.api.API;
import org.mrconf.peer.StallMonitor;
import org.mrconf.peer.TesterPeer;

/**
 * The device the current run tests. The runner installs it before it launches the cases and removes it
 * afterwards; {@link DutExtension} hands it to the cases.
 *
 * <p>A session belongs to the thread that installs it (and threads it starts): the launcher runs the cases on the
 * thread that calls it, so several runs may go on at once in one JVM, each against its own device, as the self-test
 * does. One run at a time per thread.
 *
 * <p>The session also holds two facts the runner needs between cases: whether the device was lost (its control
 * channel or link died; every later case is then ERROR without touching it, see {@link Applicability}), and the
 * tester peer of the case that runs now, whose recording is the evidence of a failure. It also holds the run's
 * {@link StallMonitor}, which the runner starts and stops: timing checks ask it how long the host stalled while they
 * measured ({@link org.mrconf.peer.StallAllowance}).
 */
@API(status = INTERNAL, since = "0.1")
public final class DutSession {
    /** The reason a case is skipped once the device is lost starts with this; the runner reports such a case ERROR. */
    public static final String LOST_PREFIX = "device under test lost: ";

    /** One run's state. */
    private static final class State {
        final DeviceUnderTest device;
        final StallMonitor stalls;
        volatile String lostReason;
        volatile TesterPeer currentPeer;

        State(final DeviceUnderTest device, final StallMonitor stalls) {
            this.device = device;
            this.stalls = stalls;
        }

        synchronized void markLost(final String reason) {
            if (lostReason == null) {
                lostReason = reason;
            }
        }
    }

    private static final InheritableThreadLocal<State> CURRENT = new InheritableThreadLocal<>();

    private DutSession() {}

    /** An installed session: removing it, or marking its device lost from any thread. */
    public interface Installed extends AutoCloseable {
        /** The run's stall monitor; one that has seen no stall when no run installed one. */
        public static StallMonitor stalls() {
            final State state = CURRENT.get();
            return state == null ? StallMonitor.none() : state.stalls;
        }

        /** Marks the device lost (first reason wins), from any thread: every case not yet started is ERROR. */
        void markLost(String reason);

        /** Removes the session. */
        @Override
        void close();
    }

    /**
     * Makes {@code dut} the device the cases of this thread's run run against, with no stall monitor (every timing
     * check then sees no stall); returns a handle that removes it.
     */
    public static Installed install(final DeviceUnderTest dut) {
        return install(dut, StallMonitor.none());
    }

    /**
     * Makes {@code dut} the device the cases of this thread's run run against, and {@code stalls} the monitor their
     * timing checks ask (the caller starts and stops it); returns a handle that removes both.
     */
    public static Installed install(final DeviceUnderTest dut, final StallMonitor stalls) {
        java.util.Objects.requireNonNull(stalls, "stalls");
        final State existing = CURRENT.get();
        if (existing != null) {
            throw new IllegalStateException("a device is already installed: " + existing.device.name());
        }
        final State state = new State(dut, stalls);
        CURRENT.set(state);
        return new Installed() {
            @Override
            public void markLost(final String reason) {
                state.markLost(reason);
            }

            @Override
            public void close() {
                if (CURRENT.get() == state) {
                    CURRENT.remove();
                }
            }
        };
    }

    /** The installed device, if any. */
    public static Optional<DeviceUnderTest> current() {
        return Optional.ofNullable(CURRENT.get()).map(s -> s.device);
    }

    /** The run's stall monitor; one that has seen no stall when no run installed one. */
    public static StallMonitor stalls() {
        final State state = CURRENT.get();
        return state == null ? StallMonitor.none() : state.stalls;
    }

    /** Marks the device lost (first reason wins): every case not yet run is skipped as ERROR. */
    public static void markLost(final String reason) {
        final State state = CURRENT.get();
        if (state != null) {
            state.markLost(reason);
        }
    }

    /** Why the device was lost, if it was. */
    public static Optional<String> lost() {
        return Optional.ofNullable(CURRENT.get()).map(s -> s.lostReason);
    }

    /**
     * Called by {@link Testbed#open}, and by the vector case for each replay attempt: the peer whose recording is the
     * evidence of the case now running.
     */
    public static void peerOpened(final TesterPeer peer) {
        final State state = CURRENT.get();
        if (state != null) {
            state.currentPeer = peer;
        }
    }

    /** The tester peer of the case now running (or the last one that ran), if it opened one. */
    public static Optional<TesterPeer> currentPeer() {
        return Optional.ofNullable(CURRENT.get()).map(s -> s.currentPeer);
    }

    /** The runner calls this before each case, so that evidence never comes from an earlier case. */
    public static void caseStarting() {
        final State state = CURRENT.get();
        if (state != null) {
            state.currentPeer = null;
        }
    }
}
