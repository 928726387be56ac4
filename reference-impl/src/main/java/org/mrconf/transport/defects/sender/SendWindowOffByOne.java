package org.mrconf.transport.defects.sender;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SenderSeam;

/** {@link Defect#SEND_WINDOW_OFF_BY_ONE}: a path may have one PSN more outstanding than the window. */
public final class SendWindowOffByOne extends SenderSeam.Forwarding {
    public SendWindowOffByOne(final SenderSeam next) {
        super(next);
    }

    @Override
    public int sendWindow(final int window) {
        return next.sendWindow(window) + 1;
    }
}
