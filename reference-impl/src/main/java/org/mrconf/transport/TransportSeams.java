package org.mrconf.transport;

import java.util.Objects;

/**
 * The seams of the reference transport: for each component, the decisions the spec fixes, which the clean reference
 * answers as the spec says ({@link #CORRECT}) and a self-validation run answers wrongly, one deliberate defect at a
 * time (built by {@code org.mrconf.transport.defects.DefectSeams}). The transport itself never asks which defects
 * are active.
 *
 * @param outbound what {@code OutboundPackets} writes into a packet
 * @param sender a sending path's PSNs, timers and windows
 * @param connection a connection's own state and its peers
 */
public record TransportSeams(OutboundSeam outbound, SenderSeam sender, ConnectionSeam connection) {
    /** The spec's answer at every seam: the clean reference. */
    public static final TransportSeams CORRECT =
            new TransportSeams(OutboundSeam.CORRECT, SenderSeam.CORRECT, ConnectionSeam.CORRECT);

    public TransportSeams {
        Objects.requireNonNull(outbound, "outbound");
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(connection, "connection");
    }
}
