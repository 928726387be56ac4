package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#MESSAGE_LENGTH_LIMIT_UNCHECKED}: answers yes to {@link ReceiveSeam#messageLengthLimitUnchecked}. */
public final class MessageLengthLimitUnchecked extends ReceiveSeam.Forwarding {
    public MessageLengthLimitUnchecked(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean messageLengthLimitUnchecked() {
        return true;
    }
}
