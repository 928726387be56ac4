package org.mrconf.transport;

import java.util.ArrayDeque;

/** The sending half of one stream: MSN and RSN counters and the messages awaiting completion in order. */
final class StreamSendState {
    long nextMsn;
    long nextRsn;
    /** Messages in MSN order; completions leave from the head only (spec clause 7.5.2). */
    final ArrayDeque<SendMessage> awaitingCompletion = new ArrayDeque<>();
}
