package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#LATE_ACK_HEALS_PATH}: answers yes to {@link AckSeam#lateAckHealsPath}. */
public final class LateAckHealsPath extends AckSeam.Forwarding {
    public LateAckHealsPath(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean lateAckHealsPath() {
        return true;
    }
}
