package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#DUPLICATE_SACKED_PLACED}: answers yes to {@link ReceiveSeam#duplicateSackedPlaced}. */
public final class DuplicateSackedPlaced extends ReceiveSeam.Forwarding {
    public DuplicateSackedPlaced(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean duplicateSackedPlaced() {
        return true;
    }
}
