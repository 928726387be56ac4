package org.mrconf.dut;

/** What a completion reports ({@code poll_completions}' {@code type}); spelled as in the protocol. */
public enum CompletionType {
    WRITE,
    WRITE_WITH_IMMEDIATE,
    SEND,
    READ,
    RECEIVE,
    RECEIVE_IMMEDIATE
}
