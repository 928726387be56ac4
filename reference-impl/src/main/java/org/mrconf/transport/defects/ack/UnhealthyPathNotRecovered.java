package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#UNHEALTHY_PATH_NOT_RECOVERED}: answers yes to {@link AckSeam#unhealthyPathNotRecovered}. */
public final class UnhealthyPathNotRecovered extends AckSeam.Forwarding {
    public UnhealthyPathNotRecovered(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean unhealthyPathNotRecovered() {
        return true;
    }
}
