package org.mrconf.transport.defects.outbound;

import java.nio.ByteBuffer;
import org.mrconf.defect.Defect;
import org.mrconf.transport.OutboundSeam;
import org.mrconf.wire.AckFlyweight;

/** {@link Defect#ACK_LAST_RECEIVED_PSN}: an ACK's PSN is one less than the next expected. */
public final class AckLastReceivedPsn extends OutboundSeam.Forwarding {
    public AckLastReceivedPsn(final OutboundSeam next) {
        super(next);
    }

    @Override
    public void finishAck(final AckFlyweight ack, final ByteBuffer buffer) {
        next.finishAck(ack, buffer);
        ack.psn((ack.psn() - 1) & 0xFFFF_FFFFL); // PSNs are 32 bits (clause 5.1)
    }
}
