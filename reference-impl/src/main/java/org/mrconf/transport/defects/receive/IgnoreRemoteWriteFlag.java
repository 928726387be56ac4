package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#IGNORE_REMOTE_WRITE_FLAG}: answers yes to {@link ReceiveSeam#ignoreRemoteWriteFlag}. */
public final class IgnoreRemoteWriteFlag extends ReceiveSeam.Forwarding {
    public IgnoreRemoteWriteFlag(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean ignoreRemoteWriteFlag() {
        return true;
    }
}
