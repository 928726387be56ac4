package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#KEY_CHECKED_BEFORE_MESSAGE_STATE}: answers yes to {@link ReceiveSeam#keyCheckedBeforeMessageState}. */
public final class KeyCheckedBeforeMessageState extends ReceiveSeam.Forwarding {
    public KeyCheckedBeforeMessageState(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean keyCheckedBeforeMessageState() {
        return true;
    }
}
