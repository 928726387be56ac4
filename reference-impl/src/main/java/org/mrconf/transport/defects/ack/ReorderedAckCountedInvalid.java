package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#REORDERED_ACK_COUNTED_INVALID}: answers yes to {@link AckSeam#reorderedAckCountedInvalid}. */
public final class ReorderedAckCountedInvalid extends AckSeam.Forwarding {
    public ReorderedAckCountedInvalid(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean reorderedAckCountedInvalid() {
        return true;
    }
}
