package org.mrconf.transport.defects.connection;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ConnectionSeam;

/** {@link Defect#IGNORE_INITIAL_PSN}: every receive path expects PSN 0 first. */
public final class IgnoreInitialPsn extends ConnectionSeam.Forwarding {
    public IgnoreInitialPsn(final ConnectionSeam next) {
        super(next);
    }

    @Override
    public long initialReceivePsn(final long declaredPsn) {
        return 0;
    }
}
