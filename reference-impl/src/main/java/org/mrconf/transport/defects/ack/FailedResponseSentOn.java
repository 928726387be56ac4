package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#FAILED_RESPONSE_SENT_ON}: answers yes to {@link AckSeam#failedResponseSentOn}. */
public final class FailedResponseSentOn extends AckSeam.Forwarding {
    public FailedResponseSentOn(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean failedResponseSentOn() {
        return true;
    }
}
