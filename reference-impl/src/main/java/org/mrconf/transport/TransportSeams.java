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
 * @param completion completions and the responder side of a READ
 * @param scheduler what is sent next, on which path, and what a timeout does
 * @param ack what the sender does with ACKs and NACKs
 * @param receive the receive path of data packets and READ requests, and the ACKs it answers with
 * @param decode how a received packet's bytes are judged before the endpoint acts on it
 * @param endpoint the endpoint's own decisions: verbs, segmentation, and which datagrams reach a connection
 */
public record TransportSeams(
        OutboundSeam outbound,
        SenderSeam sender,
        ConnectionSeam connection,
        CompletionSeam completion,
        SchedulerSeam scheduler,
        AckSeam ack,
        ReceiveSeam receive,
        DecodeSeam decode,
        EndpointSeam endpoint) {
    /** The spec's answer at every seam: the clean reference. */
    public static final TransportSeams CORRECT = new TransportSeams(
            OutboundSeam.CORRECT,
            SenderSeam.CORRECT,
            ConnectionSeam.CORRECT,
            CompletionSeam.CORRECT,
            SchedulerSeam.CORRECT,
            AckSeam.CORRECT,
            ReceiveSeam.CORRECT,
            DecodeSeam.CORRECT,
            EndpointSeam.CORRECT);

    public TransportSeams {
        Objects.requireNonNull(outbound, "outbound");
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(completion, "completion");
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(ack, "ack");
        Objects.requireNonNull(receive, "receive");
        Objects.requireNonNull(decode, "decode");
        Objects.requireNonNull(endpoint, "endpoint");
    }
}
