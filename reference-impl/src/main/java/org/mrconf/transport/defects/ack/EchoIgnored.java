package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#ECHO_IGNORED}: answers yes to {@link AckSeam#echoIgnored}. */
public final class EchoIgnored extends AckSeam.Forwarding {
    public EchoIgnored(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean echoIgnored() {
        return true;
    }
}
