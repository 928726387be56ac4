package org.mrconf.transport.defects.decode;

import org.mrconf.defect.Defect;
import org.mrconf.transport.DecodeSeam;

/** {@link Defect#STRICT_MINOR_VERSION}: answers yes to {@link DecodeSeam#strictMinorVersion}. */
public final class StrictMinorVersion extends DecodeSeam.Forwarding {
    public StrictMinorVersion(final DecodeSeam next) {
        super(next);
    }

    @Override
    public boolean strictMinorVersion() {
        return true;
    }
}
