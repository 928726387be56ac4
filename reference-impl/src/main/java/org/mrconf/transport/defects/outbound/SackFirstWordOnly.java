package org.mrconf.transport.defects.outbound;

import java.nio.ByteBuffer;
import org.mrconf.defect.Defect;
import org.mrconf.transport.OutboundSeam;
import org.mrconf.wire.AckFlyweight;

/** {@link Defect#SACK_FIRST_WORD_ONLY}: an ACK's SACK bitmap keeps only its first word. */
public final class SackFirstWordOnly extends OutboundSeam.Forwarding {
    public SackFirstWordOnly(final OutboundSeam next) {
        super(next);
    }

    @Override
    public void finishAck(final AckFlyweight ack, final ByteBuffer buffer) {
        next.finishAck(ack, buffer);
        for (int word = 1; word < AckFlyweight.SACK_WORDS; word++) {
            ack.sackWord(word, 0);
        }
    }
}
