package org.mrconf.transport;

/**
 * The verdicts {@link ReceiveDefects} may turn from those of the always-correct decoder: which received bytes are
 * accepted, rejected or read differently, each a question the spec answers no to ({@link #CORRECT}). The reference's
 * self-validation defects (package {@code org.mrconf.transport.defects.decode}) answer yes to one each and forward the
 * rest.
 */
public interface DecodeSeam {
    /**
     * Whether the endpoint does this (the spec: no): places and acknowledges a packet whose CRC32C trailer does not
     * match instead of dropping it.
     */
    default boolean acceptBadCrc() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): drops packets whose minor version is not 0 instead of accepting
     * any minor version of major 1.
     */
    default boolean strictMinorVersion() {
        return false;
    }

    /** Whether the endpoint does this (the spec: no): accepts packets of any major version as version 1. */
    default boolean acceptAnyMajorVersion() {
        return false;
    }

    /** Whether the endpoint does this (the spec: no): decodes a packet of an opcode it does not know as a WRITE. */
    default boolean unknownOpcodeAsWrite() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): takes the payload length from the datagram, ignoring a payload
     * length field that disagrees.
     */
    default boolean lengthFromDatagram() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): accepts and places a segment that runs past the end of its
     * message.
     */
    default boolean segmentBoundsUnchecked() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): answers a READ_REQUEST with a non-zero message offset or payload
     * length instead of dropping it.
     */
    default boolean readRequestFieldsUnchecked() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): checks a READ_REQUEST's message offset plus its payload length
     * field against its message length as a data packet's segment, dropping one that passes it under
     * {@code rx_inconsistent_length}, where clause 5.2.2 leaves those fields to clause 5.2.5
     * ({@code rx_invalid_field}).
     */
    default boolean readRequestSegmentChecked() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): takes SACK bit 0 of an ACK as acknowledging the cumulative PSN
     * instead of dropping the ACK.
     */
    default boolean acceptSackBit0() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): drops packets whose reserved fields or flags are not zero instead
     * of ignoring them.
     */
    default boolean rejectNonzeroReserved() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): checks the CRC before the version and the opcode, so such packets
     * land in the bad-CRC counter.
     */
    default boolean crcCheckedFirst() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): reads a NACK code outside Table 9-1 as REMOTE_ACCESS and fails
     * the work request, instead of dropping the NACK (Table 5-13).
     */
    default boolean unknownNackCodeAsRemoteAccess() {
        return false;
    }

    /** The spec's answer to every decision. */
    DecodeSeam CORRECT = new DecodeSeam() {};

    /** Forwards every decision to the next seam; a defect extends it and overrides what it changes. */
    abstract class Forwarding implements DecodeSeam {
        protected final DecodeSeam next;

        protected Forwarding(final DecodeSeam next) {
            this.next = next;
        }

        @Override
        public boolean acceptBadCrc() {
            return next.acceptBadCrc();
        }

        @Override
        public boolean strictMinorVersion() {
            return next.strictMinorVersion();
        }

        @Override
        public boolean acceptAnyMajorVersion() {
            return next.acceptAnyMajorVersion();
        }

        @Override
        public boolean unknownOpcodeAsWrite() {
            return next.unknownOpcodeAsWrite();
        }

        @Override
        public boolean lengthFromDatagram() {
            return next.lengthFromDatagram();
        }

        @Override
        public boolean segmentBoundsUnchecked() {
            return next.segmentBoundsUnchecked();
        }

        @Override
        public boolean readRequestFieldsUnchecked() {
            return next.readRequestFieldsUnchecked();
        }

        @Override
        public boolean readRequestSegmentChecked() {
            return next.readRequestSegmentChecked();
        }

        @Override
        public boolean acceptSackBit0() {
            return next.acceptSackBit0();
        }

        @Override
        public boolean rejectNonzeroReserved() {
            return next.rejectNonzeroReserved();
        }

        @Override
        public boolean crcCheckedFirst() {
            return next.crcCheckedFirst();
        }

        @Override
        public boolean unknownNackCodeAsRemoteAccess() {
            return next.unknownNackCodeAsRemoteAccess();
        }
    }
}
