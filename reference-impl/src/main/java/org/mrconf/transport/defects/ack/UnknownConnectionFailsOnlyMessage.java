package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#UNKNOWN_CONNECTION_FAILS_ONLY_MESSAGE}: answers yes to {@link AckSeam#unknownConnectionFailsOnlyMessage}. */
public final class UnknownConnectionFailsOnlyMessage extends AckSeam.Forwarding {
    public UnknownConnectionFailsOnlyMessage(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean unknownConnectionFailsOnlyMessage() {
        return true;
    }
}
