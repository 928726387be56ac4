package org.mrconf.transport.defects.decode;

import org.mrconf.defect.Defect;
import org.mrconf.transport.DecodeSeam;

/** {@link Defect#UNKNOWN_OPCODE_AS_WRITE}: answers yes to {@link DecodeSeam#unknownOpcodeAsWrite}. */
public final class UnknownOpcodeAsWrite extends DecodeSeam.Forwarding {
    public UnknownOpcodeAsWrite(final DecodeSeam next) {
        super(next);
    }

    @Override
    public boolean unknownOpcodeAsWrite() {
        return true;
    }
}
