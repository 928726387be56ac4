package org.mrconf.transport.defects.sender;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SenderSeam;

/** {@link Defect#BACKOFF_NOT_RESTORED}: a sample showing progress keeps the backoff. */
public final class BackoffNotRestored extends SenderSeam.Forwarding {
    public BackoffNotRestored(final SenderSeam next) {
        super(next);
    }

    @Override
    public int backoffAfterProgress(final int backoffShift) {
        return backoffShift;
    }
}
