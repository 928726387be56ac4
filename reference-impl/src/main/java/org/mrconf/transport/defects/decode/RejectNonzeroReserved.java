package org.mrconf.transport.defects.decode;

import org.mrconf.defect.Defect;
import org.mrconf.transport.DecodeSeam;

/** {@link Defect#REJECT_NONZERO_RESERVED}: answers yes to {@link DecodeSeam#rejectNonzeroReserved}. */
public final class RejectNonzeroReserved extends DecodeSeam.Forwarding {
    public RejectNonzeroReserved(final DecodeSeam next) {
        super(next);
    }

    @Override
    public boolean rejectNonzeroReserved() {
        return true;
    }
}
