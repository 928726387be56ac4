package org.mrconf.transport.defects.endpoint;

import org.mrconf.defect.Defect;
import org.mrconf.transport.EndpointSeam;

/** {@link Defect#ACK_REQUEST_ON_ACK_ANSWERED}: answers yes to {@link EndpointSeam#ackRequestOnAckAnswered}. */
public final class AckRequestOnAckAnswered extends EndpointSeam.Forwarding {
    public AckRequestOnAckAnswered(final EndpointSeam next) {
        super(next);
    }

    @Override
    public boolean ackRequestOnAckAnswered() {
        return true;
    }
}
