package org.mrconf.transport.defects.decode;

import org.mrconf.defect.Defect;
import org.mrconf.transport.DecodeSeam;

/** {@link Defect#UNKNOWN_NACK_CODE_AS_REMOTE_ACCESS}: answers yes to {@link DecodeSeam#unknownNackCodeAsRemoteAccess}. */
public final class UnknownNackCodeAsRemoteAccess extends DecodeSeam.Forwarding {
    public UnknownNackCodeAsRemoteAccess(final DecodeSeam next) {
        super(next);
    }

    @Override
    public boolean unknownNackCodeAsRemoteAccess() {
        return true;
    }
}
