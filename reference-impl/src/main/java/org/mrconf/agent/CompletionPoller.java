package org.mrconf.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.function.Consumer;
import org.mrconf.transport.Completion;
import org.mrconf.transport.Endpoint;

/**
 * {@code poll_completions}: the completions taken from the endpoint and not yet returned, and the polls
 * that wait for one. A poll that finds nothing with {@code waitMs} is parked and answered by
 * {@link #onTick} when a completion arrives or its wait expires, so the endpoint's thread never blocks.
 */
final class CompletionPoller {
    /** A poll waiting for its first completion. */
    private record ParkedPoll(JsonNode id, int max, long deadlineNs, Consumer<String> reply) {}

    private final Endpoint endpoint;
    private final ArrayDeque<Completion> completions = new ArrayDeque<>();
    private final ArrayDeque<ParkedPoll> parked = new ArrayDeque<>();

    CompletionPoller(final Endpoint endpoint) {
        this.endpoint = endpoint;
    }

    /** Handles one {@code poll_completions}; {@code reply} gets its response now or from a later tick. */
    void poll(
            final JsonNode id, final Args args, final long nowNs, final boolean mayWait, final Consumer<String> reply) {
        final int max = (int) args.integer("max", 1, ControlAgent.MAX_POLL);
        final long waitMs = args.integer("waitMs", 0, ControlAgent.MAX_WAIT_MS, 0);
        drainEndpoint();
        if (completions.isEmpty() && waitMs > 0 && mayWait) {
            parked.addLast(new ParkedPoll(id, max, nowNs + waitMs * 1_000_000L, reply));
            return;
        }
        answer(id, max, reply);
    }

    /** Answers the parked polls whose completion arrived or whose wait expired. */
    void onTick(final long nowNs) {
        if (parked.isEmpty()) {
            return;
        }
        drainEndpoint();
        // Oldest first: completions go to the poll that has waited longest; any poll may expire first.
        final Iterator<ParkedPoll> polls = parked.iterator();
        while (polls.hasNext()) {
            final ParkedPoll poll = polls.next();
            if (!completions.isEmpty() || poll.deadlineNs - nowNs <= 0) {
                polls.remove();
                answer(poll.id, poll.max, poll.reply);
            }
        }
    }

    /** The earliest time a parked poll's wait expires, or {@link Long#MAX_VALUE}. */
    long nextDeadlineNs() {
        long earliest = Long.MAX_VALUE;
        for (final ParkedPoll poll : parked) {
            earliest = Math.min(earliest, poll.deadlineNs);
        }
        return earliest;
    }

    /** Answers every parked poll with what is there. */
    void answerAll() {
        drainEndpoint();
        while (!parked.isEmpty()) {
            final ParkedPoll poll = parked.pollFirst();
            answer(poll.id, poll.max, poll.reply);
        }
    }

    /** Drops every completion not yet returned ({@code reset}). */
    void clear() {
        drainEndpoint();
        completions.clear();
    }

    int parkedPolls() {
        return parked.size();
    }

    private void answer(final JsonNode id, final int max, final Consumer<String> reply) {
        final ObjectNode result = Envelope.JSON.objectNode();
        final ArrayNode list = result.putArray("completions");
        for (int i = 0; i < max && !completions.isEmpty(); i++) {
            final Completion c = completions.pollFirst();
            final ObjectNode json = list.addObject();
            json.put("wrId", c.workRequestId());
            json.put("connection", Integer.toUnsignedLong(c.connectionId()));
            json.put("stream", c.streamId());
            if (c.msn() < 0) {
                json.putNull("msn");
            } else {
                json.put("msn", c.msn());
            }
            json.put("type", c.type().name());
            json.put("status", c.status().name());
            json.put("length", c.byteLength());
            json.put("immediate", c.immediate());
        }
        reply.accept(Envelope.successResponse(id, result));
    }

    private void drainEndpoint() {
        Completion completion;
        while ((completion = endpoint.pollCompletion()) != null) {
            completions.addLast(completion);
        }
    }
}
