package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#IGNORE_REMOTE_WRITE_FLAG_FOR_IMMEDIATE}: answers yes to {@link ReceiveSeam#ignoreRemoteWriteFlagForImmediate}. */
public final class IgnoreRemoteWriteFlagForImmediate extends ReceiveSeam.Forwarding {
    public IgnoreRemoteWriteFlagForImmediate(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean ignoreRemoteWriteFlagForImmediate() {
        return true;
    }
}
