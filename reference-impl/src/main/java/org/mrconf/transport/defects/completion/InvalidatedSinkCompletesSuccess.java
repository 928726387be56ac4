package org.mrconf.transport.defects.completion;

import org.mrconf.defect.Defect;
import org.mrconf.transport.CompletionSeam;

/** {@link Defect#INVALIDATED_SINK_COMPLETES_SUCCESS}: answers yes to {@link CompletionSeam#invalidatedSinkCompletesSuccess}. */
public final class InvalidatedSinkCompletesSuccess extends CompletionSeam.Forwarding {
    public InvalidatedSinkCompletesSuccess(final CompletionSeam next) {
        super(next);
    }

    @Override
    public boolean invalidatedSinkCompletesSuccess() {
        return true;
    }
}
