package org.mrconf.transport.defects.completion;

import org.mrconf.defect.Defect;
import org.mrconf.transport.CompletionSeam;

/** {@link Defect#READ_COMPLETES_ON_LAST_SEGMENT}: answers yes to {@link CompletionSeam#readCompletesOnLastSegment}. */
public final class ReadCompletesOnLastSegment extends CompletionSeam.Forwarding {
    public ReadCompletesOnLastSegment(final CompletionSeam next) {
        super(next);
    }

    @Override
    public boolean readCompletesOnLastSegment() {
        return true;
    }
}
