package org.mrconf.transport.defects.connection;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ConnectionSeam;

/** {@link Defect#UNKNOWN_CONNECTION_NACK_FLOOD}: answers every packet for an unknown connection. */
public final class UnknownConnectionNackFlood extends ConnectionSeam.Forwarding {
    public UnknownConnectionNackFlood(final ConnectionSeam next) {
        super(next);
    }

    @Override
    public long unknownConnectionAnswerIntervalNs(final long intervalNs) {
        return Long.MIN_VALUE; // no time since the last answer is ever too short
    }
}
