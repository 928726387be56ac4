package org.mrconf.transport.defects.completion;

import org.mrconf.defect.Defect;
import org.mrconf.transport.CompletionSeam;

/** {@link Defect#RECEIVE_COMPLETION_OVERTAKES_SILENT_MESSAGES}: answers yes to {@link CompletionSeam#receiveCompletionsSkipSilentMessages}. */
public final class ReceiveCompletionOvertakesSilentMessages extends CompletionSeam.Forwarding {
    public ReceiveCompletionOvertakesSilentMessages(final CompletionSeam next) {
        super(next);
    }

    @Override
    public boolean receiveCompletionsSkipSilentMessages() {
        return true;
    }
}
