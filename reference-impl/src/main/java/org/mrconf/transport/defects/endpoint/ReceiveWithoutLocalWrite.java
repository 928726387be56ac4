package org.mrconf.transport.defects.endpoint;

import org.mrconf.defect.Defect;
import org.mrconf.transport.EndpointSeam;

/** {@link Defect#RECEIVE_WITHOUT_LOCAL_WRITE}: answers yes to {@link EndpointSeam#receiveWithoutLocalWrite}. */
public final class ReceiveWithoutLocalWrite extends EndpointSeam.Forwarding {
    public ReceiveWithoutLocalWrite(final EndpointSeam next) {
        super(next);
    }

    @Override
    public boolean receiveWithoutLocalWrite() {
        return true;
    }
}
