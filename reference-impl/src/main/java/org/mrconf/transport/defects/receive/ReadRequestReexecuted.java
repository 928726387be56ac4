package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#READ_REQUEST_REEXECUTED}: answers yes to {@link ReceiveSeam#readRequestReexecuted}. */
public final class ReadRequestReexecuted extends ReceiveSeam.Forwarding {
    public ReadRequestReexecuted(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean readRequestReexecuted() {
        return true;
    }
}
