package org.mrconf.transport.defects.completion;

import org.mrconf.defect.Defect;
import org.mrconf.transport.CompletionSeam;

/** {@link Defect#READ_RESPONSE_SHORT}: answers yes to {@link CompletionSeam#readResponseShort}. */
public final class ReadResponseShort extends CompletionSeam.Forwarding {
    public ReadResponseShort(final CompletionSeam next) {
        super(next);
    }

    @Override
    public boolean readResponseShort() {
        return true;
    }
}
