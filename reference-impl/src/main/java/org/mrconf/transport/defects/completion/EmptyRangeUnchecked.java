package org.mrconf.transport.defects.completion;

import org.mrconf.defect.Defect;
import org.mrconf.transport.CompletionSeam;

/** {@link Defect#EMPTY_RANGE_UNCHECKED}: answers yes to {@link CompletionSeam#emptyRangeUnchecked}. */
public final class EmptyRangeUnchecked extends CompletionSeam.Forwarding {
    public EmptyRangeUnchecked(final CompletionSeam next) {
        super(next);
    }

    @Override
    public boolean emptyRangeUnchecked() {
        return true;
    }
}
