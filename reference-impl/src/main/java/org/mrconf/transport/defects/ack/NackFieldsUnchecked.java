package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#NACK_FIELDS_UNCHECKED}: answers yes to {@link AckSeam#nackFieldsUnchecked}. */
public final class NackFieldsUnchecked extends AckSeam.Forwarding {
    public NackFieldsUnchecked(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean nackFieldsUnchecked() {
        return true;
    }
}
