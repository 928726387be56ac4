package org.mrconf.transport.defects.endpoint;

import org.mrconf.defect.Defect;
import org.mrconf.transport.EndpointSeam;

/** {@link Defect#NO_FLUSH_ON_DESTROY}: answers yes to {@link EndpointSeam#noFlushOnDestroy}. */
public final class NoFlushOnDestroy extends EndpointSeam.Forwarding {
    public NoFlushOnDestroy(final EndpointSeam next) {
        super(next);
    }

    @Override
    public boolean noFlushOnDestroy() {
        return true;
    }
}
