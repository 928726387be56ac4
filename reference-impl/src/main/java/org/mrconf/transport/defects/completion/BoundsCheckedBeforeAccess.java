package org.mrconf.transport.defects.completion;

import org.mrconf.defect.Defect;
import org.mrconf.transport.CompletionSeam;

/** {@link Defect#BOUNDS_CHECKED_BEFORE_ACCESS}: answers yes to {@link CompletionSeam#boundsCheckedBeforeAccess}. */
public final class BoundsCheckedBeforeAccess extends CompletionSeam.Forwarding {
    public BoundsCheckedBeforeAccess(final CompletionSeam next) {
        super(next);
    }

    @Override
    public boolean boundsCheckedBeforeAccess() {
        return true;
    }
}
