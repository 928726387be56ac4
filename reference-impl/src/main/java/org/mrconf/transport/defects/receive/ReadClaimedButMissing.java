package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#READ_CLAIMED_BUT_MISSING}: answers yes to {@link ReceiveSeam#readClaimedButMissing}. */
public final class ReadClaimedButMissing extends ReceiveSeam.Forwarding {
    public ReadClaimedButMissing(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean readClaimedButMissing() {
        return true;
    }
}
