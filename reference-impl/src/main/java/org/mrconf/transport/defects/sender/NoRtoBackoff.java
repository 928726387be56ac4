package org.mrconf.transport.defects.sender;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SenderSeam;

/** {@link Defect#NO_RTO_BACKOFF}: an expiry never doubles the RTO. */
public final class NoRtoBackoff extends SenderSeam.Forwarding {
    public NoRtoBackoff(final SenderSeam next) {
        super(next);
    }

    @Override
    public int backoffAfterExpiry(final int backoffShift) {
        return backoffShift;
    }
}
