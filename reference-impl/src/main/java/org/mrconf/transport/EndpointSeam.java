package org.mrconf.transport;

/**
 * The decisions {@link Endpoint} takes itself: on the verbs, on segmentation, and on which received datagrams reach a
 * connection, each a question the spec answers no to ({@link #CORRECT}). The reference's self-validation defects
 * (package {@code org.mrconf.transport.defects.endpoint}) answer yes to one each and forward the rest.
 */
public interface EndpointSeam {
    /**
     * Whether the endpoint does this (the spec: no): keeps an invalidated region's key in the key table, so remote
     * WRITEs and READs still reach the old memory.
     */
    default boolean invalidatedKeyStillValid() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): checks LOCAL_WRITE for READ sinks only: a receive posted into a
     * region without it is accepted (by the agent and the transport alike), and a SEND would be placed there.
     */
    default boolean receiveWithoutLocalWrite() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): accepts packets for a known connection from any source address.
     */
    default boolean foreignSourceAccepted() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): NACKs a packet from a foreign source address (with REMOTE_ACCESS,
     * to the connection's peer) where a silent drop is due.
     */
    default boolean foreignSourceNacked() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): takes a packet for a known connection from a foreign source
     * address as a sign of life before it drops it, so a peer that has gone silent never fails the connection while
     * anyone else sends to it.
     */
    default boolean foreignSourceKeepsAlive() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): over IPv6 drops every datagram it receives as truncated (an IPv6
     * receive path never enabled), though it claims the ipv6 profile.
     */
    default boolean ipv6ReceiveDropped() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): puts its CE count and fair-share rate hint in its ACKs although
     * it does not claim congestion (the reference's core configuration), where clause 8.2.6 requires CE count 0 and no
     * limit.
     */
    default boolean congestionReportedUnclaimed() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): fills data packets one byte short of the largest payload the MTU
     * allows.
     */
    default boolean underfilledSegments() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): sizes data packets to the MTU without counting the IP header, so
     * its datagrams exceed the MTU.
     */
    default boolean mtuWithoutIpHeader() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): destroys a connection without completing its outstanding work
     * requests and receives.
     */
    default boolean noFlushOnDestroy() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): goes on placing and acknowledging packets for a connection that
     * has failed, as if the failure were only the sender's.
     */
    default boolean failedConnectionStillReceives() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): reads ACK_REQUEST on an ACK too and answers such an ACK with an
     * ACK of its path, which clause 8.1.3 forbids since clause 5.5.1 says so.
     */
    default boolean ackRequestOnAckAnswered() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): answers a PROBE with an ACK echoing the path's last data
     * timestamp instead of the PROBE's.
     */
    default boolean probeEchoesDataTimestamp() {
        return false;
    }

    /** Whether the endpoint does this (the spec: no): leaves the CE mark of a PROBE out of the CE count. */
    default boolean probeCeNotCounted() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): gives a new READ the lowest sink handle no READ in progress
     * holds, so a handle comes back once its READ finished.
     */
    default boolean sinkHandleReused() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): numbers the messages it sends from one counter for all streams
     * instead of one per stream.
     */
    default boolean msnPerConnection() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): reads every received packet's ECN field as Not-ECT, as a socket
     * device that never asked for the TOS byte ({@code IP_RECVTOS}) does, yet claims the congestion profile: CE marks
     * are neither counted nor reported.
     */
    default boolean receivedEcnIgnored() {
        return false;
    }

    /** The spec's answer to every decision. */
    EndpointSeam CORRECT = new EndpointSeam() {};

    /** Forwards every decision to the next seam; a defect extends it and overrides what it changes. */
    abstract class Forwarding implements EndpointSeam {
        protected final EndpointSeam next;

        protected Forwarding(final EndpointSeam next) {
            this.next = next;
        }

        @Override
        public boolean invalidatedKeyStillValid() {
            return next.invalidatedKeyStillValid();
        }

        @Override
        public boolean receiveWithoutLocalWrite() {
            return next.receiveWithoutLocalWrite();
        }

        @Override
        public boolean foreignSourceAccepted() {
            return next.foreignSourceAccepted();
        }

        @Override
        public boolean foreignSourceNacked() {
            return next.foreignSourceNacked();
        }

        @Override
        public boolean foreignSourceKeepsAlive() {
            return next.foreignSourceKeepsAlive();
        }

        @Override
        public boolean ipv6ReceiveDropped() {
            return next.ipv6ReceiveDropped();
        }

        @Override
        public boolean congestionReportedUnclaimed() {
            return next.congestionReportedUnclaimed();
        }

        @Override
        public boolean underfilledSegments() {
            return next.underfilledSegments();
        }

        @Override
        public boolean mtuWithoutIpHeader() {
            return next.mtuWithoutIpHeader();
        }

        @Override
        public boolean noFlushOnDestroy() {
            return next.noFlushOnDestroy();
        }

        @Override
        public boolean failedConnectionStillReceives() {
            return next.failedConnectionStillReceives();
        }

        @Override
        public boolean ackRequestOnAckAnswered() {
            return next.ackRequestOnAckAnswered();
        }

        @Override
        public boolean probeEchoesDataTimestamp() {
            return next.probeEchoesDataTimestamp();
        }

        @Override
        public boolean probeCeNotCounted() {
            return next.probeCeNotCounted();
        }

        @Override
        public boolean sinkHandleReused() {
            return next.sinkHandleReused();
        }

        @Override
        public boolean msnPerConnection() {
            return next.msnPerConnection();
        }

        @Override
        public boolean receivedEcnIgnored() {
            return next.receivedEcnIgnored();
        }
    }
}
