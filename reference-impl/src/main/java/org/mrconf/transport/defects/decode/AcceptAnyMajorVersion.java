package org.mrconf.transport.defects.decode;

import org.mrconf.defect.Defect;
import org.mrconf.transport.DecodeSeam;

/** {@link Defect#ACCEPT_ANY_MAJOR_VERSION}: answers yes to {@link DecodeSeam#acceptAnyMajorVersion}. */
public final class AcceptAnyMajorVersion extends DecodeSeam.Forwarding {
    public AcceptAnyMajorVersion(final DecodeSeam next) {
        super(next);
    }

    @Override
    public boolean acceptAnyMajorVersion() {
        return true;
    }
}
