package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#RNR_RECORDS_PSN}: answers yes to {@link ReceiveSeam#rnrRecordsPsn}. */
public final class RnrRecordsPsn extends ReceiveSeam.Forwarding {
    public RnrRecordsPsn(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean rnrRecordsPsn() {
        return true;
    }
}
