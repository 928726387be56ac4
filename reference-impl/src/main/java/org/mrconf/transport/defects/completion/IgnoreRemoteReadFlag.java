package org.mrconf.transport.defects.completion;

import org.mrconf.defect.Defect;
import org.mrconf.transport.CompletionSeam;

/** {@link Defect#IGNORE_REMOTE_READ_FLAG}: answers yes to {@link CompletionSeam#remoteReadFlagIgnored}. */
public final class IgnoreRemoteReadFlag extends CompletionSeam.Forwarding {
    public IgnoreRemoteReadFlag(final CompletionSeam next) {
        super(next);
    }

    @Override
    public boolean remoteReadFlagIgnored() {
        return true;
    }
}
