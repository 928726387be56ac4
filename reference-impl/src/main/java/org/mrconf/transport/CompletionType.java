package org.mrconf.transport;

/** What a completion reports: the work request's kind, or the receive-side event. */
public enum CompletionType {
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
