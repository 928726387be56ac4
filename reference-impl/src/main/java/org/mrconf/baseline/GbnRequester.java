package org.mrconf.baseline;

import java.nio.ByteBuffer;
import org.mrconf.net.EcnCodepoint;
import org.mrconf.net.PacketReceiver;
import org.mrconf.net.PacketTransmitter;

/**
 * The sending side of the go-back-N baseline, modelled on a RoCEv2 reliable-connection requester
 * without congestion control. Benchmarks only: this is not MetaRoCE.
 *
 * <p>Messages posted with {@link #postMessage(int, long)} are cut into MTU-sized DATA packets with
 * consecutive PSNs and sent on one path (one UDP source port), paced at the line rate, with at most
 * {@link GbnConfig#windowPackets()} unacknowledged. A cumulative ACK slides the window. A NAK carrying
 * PSN {@code p} acknowledges everything before {@code p} and sends the requester back to {@code p}: every
 * packet from there on is sent again, whether or not the responder had it (go-back-N). A retransmission
 * timer, reset by progress and doubled on each expiry, goes back to the oldest unacknowledged packet
 * when ACKs and NAKs stop; after {@link GbnConfig#maxRetries()} fruitless retries the requester fails.
 * ECN marks are carried but ignored: no DCQCN.
 *
 * <p>Runs on any {@link PacketTransmitter}; the fabric (or a socket driver) calls the
 * {@link PacketReceiver} methods. Internally packets are numbered by a 64-bit index that never wraps;
 * the PSN on the wire is {@code initialPsn + index} modulo 2^32.
 */
public final class GbnRequester implements PacketReceiver {
    /** {@link #messageCompletionNs(int)} of a message not yet complete. */
    public static final long NOT_COMPLETE = Long.MIN_VALUE;

    /** Where the requester is. */
    public enum State {
        /** Nothing outstanding and nothing to send. */
        IDLE,
        /** Sending or waiting for acknowledgements. */
        SENDING,
        /** Out of retries: the connection is dead, as a RoCE QP in the error state. */
        FAILED
    }

    private final GbnConfig config;
    private final GbnHeader header = new GbnHeader();
    private final GbnHeader inbound = new GbnHeader();
    private final ByteBuffer sendBuffer;
    private final MessageLog messages = new MessageLog();
    private final RetransmitTimer timer;
    private final LinePacer pacer;

    private PacketTransmitter transmitter;
    private int peerNode = -1;
    private int srcPort;

    private State state = State.IDLE;
    private long stateChangedNs;

    /** Oldest unacknowledged packet index. */
    private long sndUna;
    /** Next packet index to send. */
    private long sndNxt;
    /** One past the highest packet index ever sent: below it, a send is a retransmission. */
    private long sndMax;
    /** One past the last packet index posted. */
    private long endIndex;

    private long dataPacketsSent;
    private long retransmittedPackets;
    private long acksReceived;
    private long naksReceived;
    private long ignoredAcks;
    private long timeouts;
    private long ceReceived;
    private long malformedPackets;
    private long bytesCompleted;

    public GbnRequester(final GbnConfig config) {
        this.config = config;
        this.sendBuffer = ByteBuffer.allocate(GbnHeader.HEADER_LENGTH + config.mtuPayloadBytes());
        this.timer = new RetransmitTimer(config.rtoNs(), config.maxRtoNs());
        this.pacer = new LinePacer(config.sendRateBps(), config.wireOverheadBytes());
    }

    /**
     * Sets where DATA goes: called once by the set-up code after attaching to the fabric.
     *
     * @param srcPort the UDP source port, which fixes the path
     */
    public GbnRequester connect(final PacketTransmitter transmitter, final int peerNode, final int srcPort) {
        this.transmitter = transmitter;
        this.peerNode = peerNode;
        this.srcPort = srcPort;
        return this;
    }

    /**
     * Queues a message of {@code lengthBytes} and starts sending it if the window allows. Called by the
     * benchmark, from inside a fabric callback or followed by {@code FabricNode.wakeupChanged()}.
     *
     * @return the message id, counting from 0
     */
    public int postMessage(final int lengthBytes, final long nowNs) {
        if (transmitter == null) {
            throw new IllegalStateException("connect before posting");
        }
        if (lengthBytes < 0) {
            throw new IllegalArgumentException("lengthBytes=" + lengthBytes + " must not be negative");
        }
        if (state == State.FAILED) {
            throw new IllegalStateException("requester failed at " + stateChangedNs + " ns");
        }
        final long first = endIndex;
        endIndex += config.packetsFor(lengthBytes);
        final int id = messages.add(first, endIndex, lengthBytes, nowNs);
        if (state == State.IDLE) {
            state(State.SENDING, nowNs);
        }
        trySend(nowNs);
        return id;
    }

    @Override
    public void onPacket(
            final int srcNode,
            final int srcPort,
            final int ecn,
            final ByteBuffer buffer,
            final int offset,
            final int length,
            final long nowNs) {
        if (length < GbnHeader.HEADER_LENGTH) {
            malformedPackets++;
            return;
        }
        if (ecn == EcnCodepoint.CE) {
            ceReceived++;
        }
        inbound.wrap(buffer, offset);
        switch (inbound.type()) {
            case GbnHeader.TYPE_ACK -> onAck(inbound.psn(), nowNs);
            case GbnHeader.TYPE_NAK -> onNak(inbound.psn(), nowNs);
            default -> malformedPackets++;
        }
        trySend(nowNs);
    }

    @Override
    public void onWakeup(final long nowNs) {
        if (state == State.SENDING && timer.isExpired(nowNs)) {
            onTimeout(nowNs);
        }
        trySend(nowNs);
    }

    @Override
    public long nextWakeupNs() {
        if (state != State.SENDING) {
            return Long.MAX_VALUE;
        }
        long deadlineNs = timer.deadlineNs();
        if (canSendMore()) {
            deadlineNs = Math.min(deadlineNs, pacer.nextSendNs());
        }
        return deadlineNs;
    }

    public State state() {
        return state;
    }

    /** When the state last changed. */
    public long stateChangedNs() {
        return stateChangedNs;
    }

    /** Whether every posted message has been acknowledged. */
    public boolean isComplete() {
        return messages.completed() == messages.count();
    }

    public int messagesPosted() {
        return messages.count();
    }

    public int messagesCompleted() {
        return messages.completed();
    }

    /** When message {@code id} was posted. */
    public long messagePostNs(final int id) {
        checkMessage(id);
        return messages.postNs(id);
    }

    /** When the last packet of message {@code id} was acknowledged, or {@link #NOT_COMPLETE}. */
    public long messageCompletionNs(final int id) {
        checkMessage(id);
        return messages.completionNs(id);
    }

    /** Payload bytes of the completed messages. */
    public long bytesCompleted() {
        return bytesCompleted;
    }

    /** DATA packets acknowledged so far. */
    public long packetsAcked() {
        return sndUna;
    }

    /** DATA packets transmitted, first sends and retransmissions. */
    public long dataPacketsSent() {
        return dataPacketsSent;
    }

    /** DATA packets transmitted again: the cost of go-back-N. */
    public long retransmittedPackets() {
        return retransmittedPackets;
    }

    public long acksReceived() {
        return acksReceived;
    }

    /** NAKs received; each valid one sent the requester back. */
    public long naksReceived() {
        return naksReceived;
    }

    /** ACKs and NAKs for PSNs outside the outstanding range, ignored. */
    public long ignoredAcks() {
        return ignoredAcks;
    }

    /** Retransmission timer expiries. */
    public long timeouts() {
        return timeouts;
    }

    /** ACKs and NAKs that arrived marked CE: counted, not acted on. */
    public long ceReceived() {
        return ceReceived;
    }

    public long malformedPackets() {
        return malformedPackets;
    }

    /** The current retransmission timeout, backoff included. */
    public long currentRtoNs() {
        return timer.rtoNs();
    }

    public GbnConfig config() {
        return config;
    }

    @Override
    public String toString() {
        return "GbnRequester{state=" + state + ", una=" + sndUna + ", nxt=" + sndNxt + ", end=" + endIndex + ", sent="
                + dataPacketsSent + ", retransmitted=" + retransmittedPackets + ", timeouts=" + timeouts + '}';
    }

    private void onAck(final long psn, final long nowNs) {
        acksReceived++;
        final long index = indexOf(psn);
        if (index < sndUna || index >= sndMax) {
            // A re-ACK for a duplicate, or an ACK overtaken by a NAK: nothing new.
            ignoredAcks++;
            return;
        }
        onProgress(index + 1, nowNs);
    }

    private void onNak(final long psn, final long nowNs) {
        naksReceived++;
        final long index = indexOf(psn);
        if (index < sndUna || index >= sndMax) {
            ignoredAcks++;
            return;
        }
        if (index > sndUna) {
            onProgress(index, nowNs);
        } else {
            timer.arm(nowNs);
        }
        // Go back N: resend everything from the PSN the responder expects.
        sndNxt = index;
    }

    private void onTimeout(final long nowNs) {
        timeouts++;
        if (timer.consecutiveTimeouts() >= config.maxRetries()) {
            timer.disarm();
            state(State.FAILED, nowNs);
            return;
        }
        timer.onTimeout(nowNs);
        sndNxt = sndUna;
    }

    private void onProgress(final long newUna, final long nowNs) {
        sndUna = newUna;
        if (sndNxt < sndUna) {
            sndNxt = sndUna;
        }
        bytesCompleted += messages.completeBelow(sndUna, nowNs);
        timer.onProgress();
        if (sndUna < sndMax) {
            timer.arm(nowNs);
        } else {
            timer.disarm();
        }
        if (sndUna == endIndex) {
            state(State.IDLE, nowNs);
        }
    }

    private boolean canSendMore() {
        return sndNxt < endIndex && sndNxt - sndUna < config.windowPackets();
    }

    private void trySend(final long nowNs) {
        while (state == State.SENDING && canSendMore() && pacer.isReady(nowNs)) {
            sendData(sndNxt, nowNs);
            sndNxt++;
        }
    }

    private void sendData(final long index, final long nowNs) {
        final int message = messages.messageOf(index);
        final int messageOffset = (int) ((index - messages.firstIndex(message)) * config.mtuPayloadBytes());
        final int payloadLength = Math.min(config.mtuPayloadBytes(), messages.length(message) - messageOffset);
        final boolean last = index + 1 == messages.endIndex(message);

        int flags = last ? GbnHeader.FLAG_LAST : 0;
        // Ask for an ACK when the window fills or the data runs out, so coalescing never stalls us.
        if (last || index + 1 == endIndex || index + 1 - sndUna >= config.windowPackets()) {
            flags |= GbnHeader.FLAG_ACK_REQUEST;
        }
        header.wrap(sendBuffer, 0)
                .type(GbnHeader.TYPE_DATA)
                .flags(flags)
                .payloadLength(payloadLength)
                .psn(config.initialPsn() + index)
                .messageId(message);
        if (config.patternPayload()) {
            GbnPayload.fill(sendBuffer, GbnHeader.HEADER_LENGTH, message, messageOffset, payloadLength);
        }
        final int length = GbnHeader.HEADER_LENGTH + payloadLength;
        transmitter.transmit(peerNode, srcPort, config.ecn(), sendBuffer, 0, length);
        pacer.onSend(nowNs, length);

        dataPacketsSent++;
        if (index < sndMax) {
            retransmittedPackets++;
        } else {
            sndMax = index + 1;
        }
        if (!timer.isArmed()) {
            timer.arm(nowNs);
        }
    }

    /** The packet index a 32-bit PSN stands for: the one nearest the oldest unacknowledged packet. */
    private long indexOf(final long psn) {
        final int distance = (int) (psn - (config.initialPsn() + sndUna));
        return sndUna + distance;
    }

    private void state(final State newState, final long nowNs) {
        state = newState;
        stateChangedNs = nowNs;
    }

    private void checkMessage(final int id) {
        if (id < 0 || id >= messages.count()) {
            throw new IndexOutOfBoundsException("message id=" + id + " posted=" + messages.count());
        }
    }
}
