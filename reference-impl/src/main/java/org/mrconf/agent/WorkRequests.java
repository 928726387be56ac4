package org.mrconf.agent;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.mrconf.transport.Endpoint;
import org.mrconf.transport.Feature;

/**
 * The work-request operations ({@code post_receive}, {@code post_write}, {@code post_send}, {@code post_read}):
 * checks the connection, stream and local buffer each names, then posts it on the endpoint. A full stream or
 * queue answers {@code conflict}.
 */
final class WorkRequests {
    /** The shape of {@link Endpoint#postWrite} and {@link Endpoint#postRead}: work on a remote buffer. */
    @FunctionalInterface
    private interface RemoteWork {
        void post(
                int connection,
                int stream,
                int localKey,
                long localAddress,
                int length,
                long remoteAddress,
                int remoteKey,
                long wrId);
    }

    /** Where a work request goes: a usable connection, one of its streams, and a checked local buffer. */
    private record Target(int connection, int stream, RegionTable.LocalBuffer buffer) {}

    private final Endpoint endpoint;
    private final ConnectionTable connections;
    private final RegionTable regions;

    /** Defect RECEIVE_WITHOUT_LOCAL_WRITE: a receive's buffer is not checked for LOCAL_WRITE (clause 11.1.6). */
    private final boolean receiveWithoutLocalWrite;
    /** The declared {@code limits.maxMessageLength}: no receive is longer (control document, {@code post_receive}). */
    private final long receiveMaxBytes;

    WorkRequests(
            final Endpoint endpoint,
            final ConnectionTable connections,
            final RegionTable regions,
            final long receiveMaxBytes) {
        this.endpoint = endpoint;
        this.connections = connections;
        this.regions = regions;
        this.receiveWithoutLocalWrite =
                endpoint.config().defects().has(org.mrconf.defect.Defect.RECEIVE_WITHOUT_LOCAL_WRITE);
        this.receiveMaxBytes = receiveMaxBytes;
    }

    /** {@code post_receive}. */
    ObjectNode postReceive(final Args args) {
        final Target target = target(args, !receiveWithoutLocalWrite, receiveMaxBytes);
        final RegionTable.LocalBuffer buffer = target.buffer;
        final long wrId = wrId(args);
        post(() -> endpoint.postReceive(
                target.connection, target.stream, buffer.key(), buffer.address(), buffer.length(), wrId));
        return Envelope.JSON.objectNode();
    }

    /** {@code post_send}. */
    ObjectNode postSend(final Args args) {
        final Target target = target(args, false);
        final RegionTable.LocalBuffer buffer = target.buffer;
        final long wrId = wrId(args);
        post(() -> endpoint.postSend(
                target.connection, target.stream, buffer.key(), buffer.address(), buffer.length(), wrId));
        return Envelope.JSON.objectNode();
    }

    /** {@code post_write}, with {@code immediate} a WRITE_WITH_IMMEDIATE. */
    ObjectNode postWrite(final Args args) {
        return postRemote(args, false, true, endpoint::postWrite);
    }

    /**
     * {@code post_read}: the local buffer is where the device writes what it reads. A device without the read profile
     * does not offer the operation ({@code unknown_op}, before any argument is looked at).
     */
    ObjectNode postRead(final Args args) {
        if (!endpoint.config().offers(Feature.READ)) {
            throw new RequestError(ErrorCode.UNKNOWN_OP, "this device does not claim the read profile", "op");
        }
        return postRemote(args, true, false, endpoint::postRead);
    }

    private ObjectNode postRemote(
            final Args args, final boolean written, final boolean mayCarryImmediate, final RemoteWork work) {
        final Target target = target(args, written);
        final RegionTable.LocalBuffer buffer = target.buffer;
        final long remoteAddress = args.u64("remoteAddress");
        final int remoteKey = (int) args.u32("remoteKey");
        final long wrId = wrId(args);
        if (mayCarryImmediate && args.has("immediate") && !endpoint.config().offers(Feature.IMMEDIATE)) {
            args.u32("immediate"); // a malformed value is reported as such first
            throw new RequestError(
                    ErrorCode.INVALID_ARGUMENT, "this device does not claim the immediate profile", "args.immediate");
        }
        final RemoteWork chosen =
                mayCarryImmediate && args.has("immediate") ? withImmediate(args.u32("immediate")) : work;
        post(() -> chosen.post(
                target.connection,
                target.stream,
                buffer.key(),
                buffer.address(),
                buffer.length(),
                remoteAddress,
                remoteKey,
                wrId));
        return Envelope.JSON.objectNode();
    }

    private RemoteWork withImmediate(final long immediate) {
        return (connection, stream, localKey, localAddress, length, remoteAddress, remoteKey, wrId) ->
                endpoint.postWriteWithImmediate(
                        connection, stream, localKey, localAddress, length, remoteAddress, remoteKey, immediate, wrId);
    }

    /**
     * Checks the arguments in the order the protocol reports their faults: connection, stream, then the local
     * buffer, which must be writable when the device writes it ({@code written}).
     */
    private Target target(final Args args, final boolean written) {
        return target(args, written, ControlAgent.MAX_MESSAGE_LENGTH);
    }

    private Target target(final Args args, final boolean written, final long maxLength) {
        final ConnectionTable.Entry connection = connections.usable(args);
        final int stream = (int) args.integer("stream", 0, connection.streams() - 1);
        return new Target(connection.localId(), stream, regions.localBuffer(args, written, maxLength));
    }

    private static long wrId(final Args args) {
        return args.integer("wrId", 0, Args.WR_ID_MAX);
    }

    private static void post(final Runnable work) {
        try {
            work.run();
        } catch (final IllegalStateException e) {
            throw RequestError.conflict("args.stream", e.getMessage());
        }
    }
}
