package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#OVERTAKEN_NACK_IGNORED}: answers yes to {@link AckSeam#overtakenNackIgnored}. */
public final class OvertakenNackIgnored extends AckSeam.Forwarding {
    public OvertakenNackIgnored(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean overtakenNackIgnored() {
        return true;
    }
}
