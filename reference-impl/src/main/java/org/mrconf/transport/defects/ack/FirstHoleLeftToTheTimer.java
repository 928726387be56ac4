package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#FIRST_HOLE_LEFT_TO_THE_TIMER}: answers yes to {@link AckSeam#firstHoleLeftToTheTimer}. */
public final class FirstHoleLeftToTheTimer extends AckSeam.Forwarding {
    public FirstHoleLeftToTheTimer(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean firstHoleLeftToTheTimer() {
        return true;
    }
}
