package org.mrconf.transport;

/**
 * The decisions about completions ({@link CompletionDispatcher}) and the responder side of a READ
 * ({@link InboundReads}), each a question the spec answers no to ({@link #CORRECT}). The reference's self-validation
 * defects (package {@code org.mrconf.transport.defects.completion}) answer yes to one or two each and forward the
 * rest.
 */
public interface CompletionSeam {
    /** Whether send completions leave as their messages finish, not in MSN order (the spec: no, clause 7.5.2). */
    default boolean completionsOutOfMsnOrder() {
        return false;
    }

    /** Whether every stream of a connection waits for the slowest one's completions (the spec: no, clause 7.5.3). */
    default boolean oneCompletionQueuePerConnection() {
        return false;
    }

    /** Whether a failed work request completes ahead of earlier ones of its stream (the spec: no, clause 7.5.2). */
    default boolean errorCompletionsJumpTheQueue() {
        return false;
    }

    /** Whether receive completions are ordered only among the messages that raise one (the spec: no, clause 7.5.2). */
    default boolean receiveCompletionsSkipSilentMessages() {
        return false;
    }

    /** Whether a finished READ stays findable by its sink handle (the spec: no need, clause 7.4). */
    default boolean finishedReadsKeptBySink() {
        return false;
    }

    /** Whether every unfinished work request of a failed connection gets the failure's status, Table 6-1 ignored (the spec: no, clause 6.7.4). */
    default boolean failureStatusUniform() {
        return false;
    }

    /** Whether a receive a SEND has partly filled is left out of a flush (the spec: no, clause 6.7.4). */
    default boolean partlyFilledReceiveNeverFlushed() {
        return false;
    }

    /** Whether a READ naming an unknown key is NACKed BOUNDS, not REMOTE_ACCESS (the spec: no, clause 11.1.2). */
    default boolean unknownKeyNackedAsBounds() {
        return false;
    }

    /** Whether a READ may read a region without remote read access (the spec: no, clause 11.1.2). */
    default boolean remoteReadFlagIgnored() {
        return false;
    }

    /**
     * Whether a READ_RESPONSE is placed whatever stream id, MSN and message length it carries, once its sink handle
     * names a READ in progress (the spec: no, Table 5-13 NACKs INVALID_REQUEST when they differ from the READ's).
     */
    default boolean responseFieldsUnchecked() {
        return false;
    }

    /** Whether the bounds are checked before the access flags (the spec: no, access first, clause 11.1.3). */
    default boolean boundsCheckedBeforeAccess() {
        return false;
    }

    /** Whether a zero-length READ skips the bounds check (the spec: no, clause 11.1.3). */
    default boolean emptyRangeUnchecked() {
        return false;
    }

    /** Whether a READ response carries one byte less than asked (the spec: no, clause 7.4). */
    default boolean readResponseShort() {
        return false;
    }

    /** Whether a READ completes when its last segment arrives, whatever is missing (the spec: no, clause 7.4). */
    default boolean readCompletesOnLastSegment() {
        return false;
    }

    /** Whether a READ whose sink was invalidated completes SUCCESS (the spec: no, clause 11.1.7). */
    default boolean invalidatedSinkCompletesSuccess() {
        return false;
    }

    /** Whether a READ response is compared with the finished READ its sink handle named (the spec: no, clause 7.4). */
    default boolean readResponseComparedWithFinishedRead() {
        return false;
    }

    /** The spec's answer to every decision. */
    CompletionSeam CORRECT = new CompletionSeam() {};

    /** Forwards every decision to the next seam; a defect extends it and overrides what it changes. */
    abstract class Forwarding implements CompletionSeam {
        protected final CompletionSeam next;

        protected Forwarding(final CompletionSeam next) {
            this.next = next;
        }

        @Override
        public boolean completionsOutOfMsnOrder() {
            return next.completionsOutOfMsnOrder();
        }

        @Override
        public boolean oneCompletionQueuePerConnection() {
            return next.oneCompletionQueuePerConnection();
        }

        @Override
        public boolean errorCompletionsJumpTheQueue() {
            return next.errorCompletionsJumpTheQueue();
        }

        @Override
        public boolean receiveCompletionsSkipSilentMessages() {
            return next.receiveCompletionsSkipSilentMessages();
        }

        @Override
        public boolean finishedReadsKeptBySink() {
            return next.finishedReadsKeptBySink();
        }

        @Override
        public boolean failureStatusUniform() {
            return next.failureStatusUniform();
        }

        @Override
        public boolean partlyFilledReceiveNeverFlushed() {
            return next.partlyFilledReceiveNeverFlushed();
        }

        @Override
        public boolean unknownKeyNackedAsBounds() {
            return next.unknownKeyNackedAsBounds();
        }

        @Override
        public boolean remoteReadFlagIgnored() {
            return next.remoteReadFlagIgnored();
        }

        @Override
        public boolean responseFieldsUnchecked() {
            return next.responseFieldsUnchecked();
        }

        @Override
        public boolean boundsCheckedBeforeAccess() {
            return next.boundsCheckedBeforeAccess();
        }

        @Override
        public boolean emptyRangeUnchecked() {
            return next.emptyRangeUnchecked();
        }

        @Override
        public boolean readResponseShort() {
            return next.readResponseShort();
        }

        @Override
        public boolean readCompletesOnLastSegment() {
            return next.readCompletesOnLastSegment();
        }

        @Override
        public boolean invalidatedSinkCompletesSuccess() {
            return next.invalidatedSinkCompletesSuccess();
        }

        @Override
        public boolean readResponseComparedWithFinishedRead() {
            return next.readResponseComparedWithFinishedRead();
        }
    }
}
