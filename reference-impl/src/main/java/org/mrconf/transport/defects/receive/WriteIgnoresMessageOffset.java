package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#WRITE_IGNORES_MESSAGE_OFFSET}: answers yes to {@link ReceiveSeam#writeIgnoresMessageOffset}. */
public final class WriteIgnoresMessageOffset extends ReceiveSeam.Forwarding {
    public WriteIgnoresMessageOffset(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean writeIgnoresMessageOffset() {
        return true;
    }
}
