package org.mrconf.transport.defects.connection;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ConnectionSeam;

/**
 * {@link Defect#PEER_MESSAGE_LIMIT_BLIND_TO_NACKS}: for the peer's limit, a message is finished only once every packet
 * of it is acknowledged, never by the NACK that failed it.
 */
public final class PeerMessageLimitBlindToNacks extends ConnectionSeam.Forwarding {
    public PeerMessageLimitBlindToNacks(final ConnectionSeam next) {
        super(next);
    }

    @Override
    public boolean failedMessageKnownFinished() {
        return false;
    }
}
