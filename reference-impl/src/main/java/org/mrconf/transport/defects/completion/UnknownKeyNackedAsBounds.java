package org.mrconf.transport.defects.completion;

import org.mrconf.defect.Defect;
import org.mrconf.transport.CompletionSeam;

/** {@link Defect#UNKNOWN_KEY_NACKED_AS_BOUNDS}: answers yes to {@link CompletionSeam#unknownKeyNackedAsBounds}. */
public final class UnknownKeyNackedAsBounds extends CompletionSeam.Forwarding {
    public UnknownKeyNackedAsBounds(final CompletionSeam next) {
        super(next);
    }

    @Override
    public boolean unknownKeyNackedAsBounds() {
        return true;
    }
}
