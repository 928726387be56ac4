package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#RECEIVE_WINDOW_OFF_BY_ONE}: answers yes to {@link ReceiveSeam#receiveWindowOffByOne}. */
public final class ReceiveWindowOffByOne extends ReceiveSeam.Forwarding {
    public ReceiveWindowOffByOne(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean receiveWindowOffByOne() {
        return true;
    }
}
