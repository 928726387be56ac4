package org.mrconf.transport;

/**
 * Sizes of the endpoint's internal state, summed over connections: what a soak test watches to prove
 * state stays bounded, and what an operator looks at when a transfer stalls.
 *
 * @param connections        connections that exist
 * @param queuedMessages     messages with packets not yet sent once
 * @param awaitingCompletion messages posted and not yet completed
 * @param outstandingPsns    PSNs sent and not yet acknowledged
 * @param openReads          READs waiting for their data
 * @param pendingCompletions completions not yet polled
 */
public record EndpointDiagnostics(
        int connections,
        int queuedMessages,
        int awaitingCompletion,
        int outstandingPsns,
        int openReads,
        int pendingCompletions) {}
