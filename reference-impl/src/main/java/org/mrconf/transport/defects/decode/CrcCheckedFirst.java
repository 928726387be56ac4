package org.mrconf.transport.defects.decode;

import org.mrconf.defect.Defect;
import org.mrconf.transport.DecodeSeam;

/** {@link Defect#CRC_CHECKED_FIRST}: answers yes to {@link DecodeSeam#crcCheckedFirst}. */
public final class CrcCheckedFirst extends DecodeSeam.Forwarding {
    public CrcCheckedFirst(final DecodeSeam next) {
        super(next);
    }

    @Override
    public boolean crcCheckedFirst() {
        return true;
    }
}
