package org.mrconf.transport.defects.sender;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SenderSeam;

/** {@link Defect#TAIL_PROBE_RESENT_ON_OLD_ENTROPY}: a PSN a tail-loss probe showed lost is resent from the port it was lost on. */
public final class TailProbeResentOnOldEntropy extends SenderSeam.Forwarding {
    public TailProbeResentOnOldEntropy(final SenderSeam next) {
        super(next);
    }

    @Override
    public boolean repathAfterTailProbe() {
        return false;
    }
}
