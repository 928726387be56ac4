package org.mrconf.agent;

import java.util.concurrent.CompletionStage;

/**
 * Takes one request line of the control protocol and answers with one response line, now or later.
 * Implemented by the soft DUT (which runs the agent on its endpoint thread); called by
 * {@link ControlServer}, one request at a time per client connection.
 */
@FunctionalInterface
public interface RequestHandler {
    /** Answers {@code requestLine} (without its newline); the stage always completes with one line. */
    CompletionStage<String> submit(String requestLine);
}
