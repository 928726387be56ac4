package org.mrconf.transport.defects.completion;

import org.mrconf.defect.Defect;
import org.mrconf.transport.CompletionSeam;

/** {@link Defect#COMPLETIONS_OUT_OF_MSN_ORDER}: answers yes to {@link CompletionSeam#completionsOutOfMsnOrder}. */
public final class CompletionsOutOfMsnOrder extends CompletionSeam.Forwarding {
    public CompletionsOutOfMsnOrder(final CompletionSeam next) {
        super(next);
    }

    @Override
    public boolean completionsOutOfMsnOrder() {
        return true;
    }
}
