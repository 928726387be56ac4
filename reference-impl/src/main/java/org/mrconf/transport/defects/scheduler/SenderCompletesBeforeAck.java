package org.mrconf.transport.defects.scheduler;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SchedulerSeam;

/** {@link Defect#SENDER_COMPLETES_BEFORE_ACK}: answers yes to {@link SchedulerSeam#senderCompletesBeforeAck}. */
public final class SenderCompletesBeforeAck extends SchedulerSeam.Forwarding {
    public SenderCompletesBeforeAck(final SchedulerSeam next) {
        super(next);
    }

    @Override
    public boolean senderCompletesBeforeAck() {
        return true;
    }
}
