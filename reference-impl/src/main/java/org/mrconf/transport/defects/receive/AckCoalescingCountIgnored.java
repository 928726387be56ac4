package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#ACK_COALESCING_COUNT_IGNORED}: answers yes to {@link ReceiveSeam#ackCoalescingCountIgnored}. */
public final class AckCoalescingCountIgnored extends ReceiveSeam.Forwarding {
    public AckCoalescingCountIgnored(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean ackCoalescingCountIgnored() {
        return true;
    }
}
