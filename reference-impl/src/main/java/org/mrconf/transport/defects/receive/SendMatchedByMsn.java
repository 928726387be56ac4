package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#SEND_MATCHED_BY_MSN}: answers yes to {@link ReceiveSeam#sendMatchedByMsn}. */
public final class SendMatchedByMsn extends ReceiveSeam.Forwarding {
    public SendMatchedByMsn(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean sendMatchedByMsn() {
        return true;
    }
}
