package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#SHARED_RECEIVE_STATE}: answers yes to {@link ReceiveSeam#sharedReceiveState}. */
public final class SharedReceiveState extends ReceiveSeam.Forwarding {
    public SharedReceiveState(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean sharedReceiveState() {
        return true;
    }
}
