package org.mrconf.transport.defects.completion;

import org.mrconf.defect.Defect;
import org.mrconf.transport.CompletionSeam;

/** {@link Defect#READ_RESPONSE_AGREEMENT_BEFORE_HANDLE}: answers yes to {@link CompletionSeam#finishedReadsKeptBySink} and {@link CompletionSeam#readResponseComparedWithFinishedRead}. */
public final class ReadResponseAgreementBeforeHandle extends CompletionSeam.Forwarding {
    public ReadResponseAgreementBeforeHandle(final CompletionSeam next) {
        super(next);
    }

    @Override
    public boolean finishedReadsKeptBySink() {
        return true;
    }

    @Override
    public boolean readResponseComparedWithFinishedRead() {
        return true;
    }
}
