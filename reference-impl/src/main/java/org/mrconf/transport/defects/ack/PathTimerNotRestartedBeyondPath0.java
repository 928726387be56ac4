package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#PATH_TIMER_NOT_RESTARTED_BEYOND_PATH_0}: answers yes to {@link AckSeam#pathTimerNotRestartedBeyondPath0}. */
public final class PathTimerNotRestartedBeyondPath0 extends AckSeam.Forwarding {
    public PathTimerNotRestartedBeyondPath0(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean pathTimerNotRestartedBeyondPath0() {
        return true;
    }
}
