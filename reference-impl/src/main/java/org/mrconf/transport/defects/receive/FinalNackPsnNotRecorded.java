package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#FINAL_NACK_PSN_NOT_RECORDED}: answers yes to {@link ReceiveSeam#finalNackPsnNotRecorded}. */
public final class FinalNackPsnNotRecorded extends ReceiveSeam.Forwarding {
    public FinalNackPsnNotRecorded(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean finalNackPsnNotRecorded() {
        return true;
    }
}
