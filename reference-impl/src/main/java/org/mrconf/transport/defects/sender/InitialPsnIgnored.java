package org.mrconf.transport.defects.sender;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SenderSeam;

/** {@link Defect#INITIAL_PSN_IGNORED}: every path starts at PSN 0. */
public final class InitialPsnIgnored extends SenderSeam.Forwarding {
    public InitialPsnIgnored(final SenderSeam next) {
        super(next);
    }

    @Override
    public long initialPsn(final long declaredPsn) {
        return 0;
    }
}
