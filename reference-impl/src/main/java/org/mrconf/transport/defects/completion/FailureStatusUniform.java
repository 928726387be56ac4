package org.mrconf.transport.defects.completion;

import org.mrconf.defect.Defect;
import org.mrconf.transport.CompletionSeam;

/** {@link Defect#FAILURE_STATUS_UNIFORM}: answers yes to {@link CompletionSeam#failureStatusUniform}. */
public final class FailureStatusUniform extends CompletionSeam.Forwarding {
    public FailureStatusUniform(final CompletionSeam next) {
        super(next);
    }

    @Override
    public boolean failureStatusUniform() {
        return true;
    }
}
