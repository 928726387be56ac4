package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;

/**
 * What a completion reports ({@code poll_completions}' {@code type}); spelled as in the protocol.
 *
 * <p>Deliberately not the reference's {@code org.mrconf.transport.WorkCompletionType}: the suite reaches every device, the reference included,
 * only through the control protocol, and shares no code with any of them. A test keeps the vocabularies in step.
 */
@API(status = MAINTAINED, since = "0.1")
public enum CompletionType {
    WRITE,
    WRITE_WITH_IMMEDIATE,
    SEND,
    READ,
    RECEIVE,
    RECEIVE_IMMEDIATE
}
