package org.mrconf.cases;

import java.util.Optional;
import org.mrconf.peer.TesterPeer;

/**
 * The device the current run tests. The runner installs it before it launches the cases and removes it
 * afterwards; {@link DutExtension} hands it to the cases. One run at a time per JVM.
 *
 * <p>The session also holds two facts the runner needs between cases: whether the device was lost (its control
 * channel or link died; every later case is then ERROR without touching it, see {@link Applicability}), and the
 * tester peer of the case that runs now, whose recording is the evidence of a failure.
 */
public final class DutSession {
    /** The reason a case is skipped once the device is lost starts with this; the runner reports such a case ERROR. */
    public static final String LOST_PREFIX = "device under test lost: ";

    private static volatile DeviceUnderTest current;
    private static volatile String lostReason;
    private static volatile TesterPeer currentPeer;

    private DutSession() {}

    /** Makes {@code dut} the device the cases run against; returns a handle that removes it. */
    public static AutoCloseable install(final DeviceUnderTest dut) {
        if (current != null) {
            throw new IllegalStateException("a device is already installed: " + current.name());
        }
        current = dut;
        lostReason = null;
        currentPeer = null;
        return () -> {
            current = null;
            lostReason = null;
            currentPeer = null;
        };
    }

    /** The installed device, if any. */
    public static Optional<DeviceUnderTest> current() {
        return Optional.ofNullable(current);
    }

    /** Marks the device lost (first reason wins): every case not yet run is skipped as ERROR. */
    public static void markLost(final String reason) {
        if (lostReason == null) {
            lostReason = reason;
        }
    }

    /** Why the device was lost, if it was. */
    public static Optional<String> lost() {
        return Optional.ofNullable(lostReason);
    }

    /** Called by {@link Testbed#open}: the peer whose recording is the evidence of the case now running. */
    static void peerOpened(final TesterPeer peer) {
        currentPeer = peer;
    }

    /** The tester peer of the case now running (or the last one that ran), if it opened one. */
    public static Optional<TesterPeer> currentPeer() {
        return Optional.ofNullable(currentPeer);
    }

    /** The runner calls this before each case, so that evidence never comes from an earlier case. */
    public static void caseStarting() {
        currentPeer = null;
    }
}
