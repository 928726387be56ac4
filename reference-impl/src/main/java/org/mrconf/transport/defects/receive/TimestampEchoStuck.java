package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#TIMESTAMP_ECHO_STUCK}: answers yes to {@link ReceiveSeam#timestampEchoStuck}. */
public final class TimestampEchoStuck extends ReceiveSeam.Forwarding {
    public TimestampEchoStuck(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean timestampEchoStuck() {
        return true;
    }
}
