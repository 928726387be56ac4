package org.mrconf.transport.defects.completion;

import org.mrconf.defect.Defect;
import org.mrconf.transport.CompletionSeam;

/** {@link Defect#RESPONSE_FIELDS_UNCHECKED}: answers yes to {@link CompletionSeam#responseFieldsUnchecked}. */
public final class ResponseFieldsUnchecked extends CompletionSeam.Forwarding {
    public ResponseFieldsUnchecked(final CompletionSeam next) {
        super(next);
    }

    @Override
    public boolean responseFieldsUnchecked() {
        return true;
    }
}
