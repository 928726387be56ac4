package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#TIMESTAMP_ECHO_SKIPS_RETRANSMISSIONS}: answers yes to {@link ReceiveSeam#timestampEchoSkipsRetransmissions}. */
public final class TimestampEchoSkipsRetransmissions extends ReceiveSeam.Forwarding {
    public TimestampEchoSkipsRetransmissions(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean timestampEchoSkipsRetransmissions() {
        return true;
    }
}
