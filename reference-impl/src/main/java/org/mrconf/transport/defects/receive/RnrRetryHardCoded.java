package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#RNR_RETRY_HARD_CODED}: answers yes to {@link ReceiveSeam#rnrRetryHardCoded}. */
public final class RnrRetryHardCoded extends ReceiveSeam.Forwarding {
    public RnrRetryHardCoded(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean rnrRetryHardCoded() {
        return true;
    }
}
