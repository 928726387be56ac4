package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#RETRY_AFTER_IGNORED}: answers yes to {@link AckSeam#retryAfterIgnored}. */
public final class RetryAfterIgnored extends AckSeam.Forwarding {
    public RetryAfterIgnored(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean retryAfterIgnored() {
        return true;
    }
}
