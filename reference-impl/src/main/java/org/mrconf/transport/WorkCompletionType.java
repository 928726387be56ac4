package org.mrconf.transport;

/**
 * What a completion reports: the work request's kind, or the receive-side event.
 *
 * <p>The suite has its own {@code org.mrconf.dut.CompletionType}, the suite's copy, read from the control protocol: the reference and the suite share no code, so that a
 * bug in one cannot hide the same bug in the other. A test compares the two vocabularies with the control document.
 */
public enum WorkCompletionType {
    /** A posted WRITE finished at the sender. */
    WRITE,
    /** A posted WRITE_WITH_IMMEDIATE finished at the sender. */
    WRITE_WITH_IMMEDIATE,
    /** A posted SEND finished at the sender. */
    SEND,
    /** A posted READ finished at the requester. */
    READ,
    /** A posted receive was filled by a SEND (receive side). */
    RECEIVE,
    /** A WRITE_WITH_IMMEDIATE landed (receive side); consumes no posted receive (spec clause 7.2.2). */
    RECEIVE_IMMEDIATE
}
