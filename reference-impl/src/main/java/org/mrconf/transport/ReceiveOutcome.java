package org.mrconf.transport;

/** What became of one new data packet or READ_REQUEST on the receive path ({@link InboundData}). */
enum ReceiveOutcome {
    PLACED,
    STALE,
    REJECTED,
    NOT_READY,
    /** Dropped unrecorded: no state could be allocated for it (the budget is spent). */
    DROPPED
}
