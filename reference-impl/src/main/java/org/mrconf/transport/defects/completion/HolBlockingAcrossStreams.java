package org.mrconf.transport.defects.completion;

import org.mrconf.defect.Defect;
import org.mrconf.transport.CompletionSeam;

/** {@link Defect#HOL_BLOCKING_ACROSS_STREAMS}: answers yes to {@link CompletionSeam#oneCompletionQueuePerConnection}. */
public final class HolBlockingAcrossStreams extends CompletionSeam.Forwarding {
    public HolBlockingAcrossStreams(final CompletionSeam next) {
        super(next);
    }

    @Override
    public boolean oneCompletionQueuePerConnection() {
        return true;
    }
}
