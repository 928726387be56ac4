package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#UNCLAIMED_OPCODES_HANDLED}: answers yes to {@link ReceiveSeam#unclaimedOpcodesHandled}. */
public final class UnclaimedOpcodesHandled extends ReceiveSeam.Forwarding {
    public UnclaimedOpcodesHandled(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean unclaimedOpcodesHandled() {
        return true;
    }
}
