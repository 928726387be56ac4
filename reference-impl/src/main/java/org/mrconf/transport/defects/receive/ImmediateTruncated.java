package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#IMMEDIATE_TRUNCATED}: answers yes to {@link ReceiveSeam#immediateTruncated}. */
public final class ImmediateTruncated extends ReceiveSeam.Forwarding {
    public ImmediateTruncated(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean immediateTruncated() {
        return true;
    }
}
