package org.mrconf.transport.defects.decode;

import org.mrconf.defect.Defect;
import org.mrconf.transport.DecodeSeam;

/** {@link Defect#READ_REQUEST_FIELDS_UNCHECKED}: answers yes to {@link DecodeSeam#readRequestFieldsUnchecked}. */
public final class ReadRequestFieldsUnchecked extends DecodeSeam.Forwarding {
    public ReadRequestFieldsUnchecked(final DecodeSeam next) {
        super(next);
    }

    @Override
    public boolean readRequestFieldsUnchecked() {
        return true;
    }
}
