package org.mrconf.transport.defects.connection;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ConnectionSeam;

/** {@link Defect#REJECTED_MESSAGE_REJECTED_AGAIN}: a later packet of the message last rejected is rejected again. */
public final class RejectedMessageRejectedAgain extends ConnectionSeam.Forwarding {
    public RejectedMessageRejectedAgain(final ConnectionSeam next) {
        super(next);
    }

    @Override
    public boolean rejectedMessageRejectedAgain() {
        return true;
    }
}
