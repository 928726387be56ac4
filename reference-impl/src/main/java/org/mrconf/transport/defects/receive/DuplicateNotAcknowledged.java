package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#DUPLICATE_NOT_ACKNOWLEDGED}: answers yes to {@link ReceiveSeam#duplicateNotAcknowledged}. */
public final class DuplicateNotAcknowledged extends ReceiveSeam.Forwarding {
    public DuplicateNotAcknowledged(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean duplicateNotAcknowledged() {
        return true;
    }
}
