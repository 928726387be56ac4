package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#WRITE_ADDRESS_FROM_FIRST_PACKET}: answers yes to {@link ReceiveSeam#writeAddressFromFirstPacket}. */
public final class WriteAddressFromFirstPacket extends ReceiveSeam.Forwarding {
    public WriteAddressFromFirstPacket(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean writeAddressFromFirstPacket() {
        return true;
    }
}
