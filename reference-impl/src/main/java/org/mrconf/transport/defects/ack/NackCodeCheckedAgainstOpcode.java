package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#NACK_CODE_CHECKED_AGAINST_OPCODE}: answers yes to {@link AckSeam#nackCodeCheckedAgainstOpcode}. */
public final class NackCodeCheckedAgainstOpcode extends AckSeam.Forwarding {
    public NackCodeCheckedAgainstOpcode(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean nackCodeCheckedAgainstOpcode() {
        return true;
    }
}
