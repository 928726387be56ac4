package org.mrconf.transport.defects.completion;

import org.mrconf.defect.Defect;
import org.mrconf.transport.CompletionSeam;

/** {@link Defect#PARTLY_FILLED_RECEIVE_NEVER_FLUSHED}: answers yes to {@link CompletionSeam#partlyFilledReceiveNeverFlushed}. */
public final class PartlyFilledReceiveNeverFlushed extends CompletionSeam.Forwarding {
    public PartlyFilledReceiveNeverFlushed(final CompletionSeam next) {
        super(next);
    }

    @Override
    public boolean partlyFilledReceiveNeverFlushed() {
        return true;
    }
}
