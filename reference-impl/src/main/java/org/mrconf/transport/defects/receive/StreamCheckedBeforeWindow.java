package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#STREAM_CHECKED_BEFORE_WINDOW}: answers yes to {@link ReceiveSeam#streamCheckedBeforeWindow}. */
public final class StreamCheckedBeforeWindow extends ReceiveSeam.Forwarding {
    public StreamCheckedBeforeWindow(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean streamCheckedBeforeWindow() {
        return true;
    }
}
