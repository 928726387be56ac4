package org.mrconf.transport.defects.connection;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ConnectionSeam;

/** {@link Defect#PEER_MESSAGE_LIMIT_IGNORED}: messages start without regard to the peer's maximum outstanding messages. */
public final class PeerMessageLimitIgnored extends ConnectionSeam.Forwarding {
    public PeerMessageLimitIgnored(final ConnectionSeam next) {
        super(next);
    }

    @Override
    public boolean honoursPeerMessageLimit() {
        return false;
    }
}
