package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#ACK_REQUEST_IGNORED}: answers yes to {@link ReceiveSeam#ackRequestIgnored}. */
public final class AckRequestIgnored extends ReceiveSeam.Forwarding {
    public AckRequestIgnored(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean ackRequestIgnored() {
        return true;
    }
}
