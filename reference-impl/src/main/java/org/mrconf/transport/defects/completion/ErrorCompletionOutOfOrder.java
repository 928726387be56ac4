package org.mrconf.transport.defects.completion;

import org.mrconf.defect.Defect;
import org.mrconf.transport.CompletionSeam;

/** {@link Defect#ERROR_COMPLETION_OUT_OF_ORDER}: answers yes to {@link CompletionSeam#errorCompletionsJumpTheQueue}. */
public final class ErrorCompletionOutOfOrder extends CompletionSeam.Forwarding {
    public ErrorCompletionOutOfOrder(final CompletionSeam next) {
        super(next);
    }

    @Override
    public boolean errorCompletionsJumpTheQueue() {
        return true;
    }
}
