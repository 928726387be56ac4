package org.mrconf.peer;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apiguardian.api.API;
import org.mrconf.dut.WireLink;
import org.mrconf.pcap.Ecn;

/**
 * The tester peer's send path: picks each packet's entropy ({@link EntropyPlan}), applies the test's
 * {@link Impairment} (drop, delay, duplicate, reorder) and puts the result on the {@link WireLink}, logging every
 * decision and every copy that went out. Delayed packets go out from one daemon thread; reordered ones are held
 * until enough later packets have been sent, or until {@link #flush}.
 *
 * <p>Thread-safe: packets may be sent from the test thread and from listeners on the {@link Recorder} thread.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class PeerSender implements AutoCloseable {
    private final WireLink link;
    private final Impairment impairment;
    private final EntropyPlan entropy;
    private Ecn defaultEcn = Ecn.NOT_ECT;
    private long nextIndex;
    private final List<SentPacket> decisions = new ArrayList<>();
    private final List<SentPacket> transmissions = new ArrayList<>();
    /** Apart from {@link #transmissions}, and not under this sender's lock: ACKs go out from the recorder's thread. */
    private final ConcurrentLinkedQueue<SentPacket> controlTransmissions = new ConcurrentLinkedQueue<>();

    private final List<Held> held = new ArrayList<>();
    private ScheduledExecutorService scheduler;
    private int delayedInFlight;
    private IOException delayedFailure;
    private final java.util.concurrent.atomic.AtomicLong transmitted = new java.util.concurrent.atomic.AtomicLong();

    private static final class Held {
        private final SentPacket packet;
        private int remaining;

        private Held(SentPacket packet, int remaining) {
            this.packet = packet;
            this.remaining = remaining;
        }
    }

    public PeerSender(WireLink link, Impairment impairment, EntropyPlan entropy) {
        this.link = Objects.requireNonNull(link, "link");
        this.impairment = Objects.requireNonNull(impairment, "impairment");
        this.entropy = Objects.requireNonNull(entropy, "entropy");
    }

    /** A sender without impairments, every packet from {@code port}. */
    public static PeerSender plain(WireLink link, int port) {
        return new PeerSender(link, Impairment.none(), EntropyPlan.fixed(port));
    }

    /** The ECN codepoint of packets sent without one, Not-ECT unless changed. */
    public synchronized PeerSender defaultEcn(Ecn ecn) {
        this.defaultEcn = Objects.requireNonNull(ecn, "ecn");
        return this;
    }

    /** Sends with the entropy plan's port and the default ECN. */
    public SentPacket send(byte[] packet) throws IOException {
        return send(packet, defaultEcn());
    }

    public synchronized SentPacket send(byte[] packet, Ecn ecn) throws IOException {
        int path = packet.length > 8 ? packet[8] & 0xFF : 0;
        return send(packet, entropy.sourcePort(path, nextIndex), ecn);
    }

    /** Sends from an explicit source port; the impairment still applies. */
    public synchronized SentPacket send(byte[] packet, int sourcePort, Ecn ecn) throws IOException {
        rethrowDelayedFailure();
        long index = nextIndex++;
        Fate fate = impairment.decide(index, packet.clone());
        SentPacket decision = new SentPacket(index, fate, sourcePort, ecn, link.nowNs(), packet);
        decisions.add(decision);
        switch (fate.kind()) {
            case DROP -> {
                // Nothing goes out; the log keeps the packet so a report can show what was lost.
            }
            case DELIVER -> transmitAndRelease(decision);
            case DUPLICATE -> {
                for (int copy = 0; copy < fate.copies(); copy++) {
                    transmitAndRelease(decision);
                }
            }
            case DELAY -> schedule(decision, fate.delay());
            case REORDER -> held.add(new Held(decision, fate.behind()));
            default -> throw new AssertionError(fate);
        }
        return decision;
    }

    /**
     * Sends a packet straight to the link, bypassing impairment and the decision log: for the peer's own control
     * traffic (its ACKs). It is kept in {@link #controlTransmissions()}, so evidence shows it.
     */
    public void sendUnimpaired(byte[] packet, int sourcePort, Ecn ecn) throws IOException {
        long nowNs = link.nowNs();
        link.send(packet, sourcePort, ecn);
        transmitted.incrementAndGet();
        controlTransmissions.add(new SentPacket(-1, Fate.deliver(), sourcePort, ecn, nowNs, packet));
    }

    /**
     * Sends a packet straight to the link from {@code sourceAddress} ({@link WireLink#sendFrom}), bypassing
     * impairment and the decision log, and keeps it in {@link #controlTransmissions()}: for a case's packets from a
     * foreign address (clause 11.2.2).
     */
    public void sendUnimpaired(InetAddress sourceAddress, byte[] packet, int sourcePort, Ecn ecn) throws IOException {
        long nowNs = link.nowNs();
        link.sendFrom(sourceAddress, packet, sourcePort, ecn);
        transmitted.incrementAndGet();
        controlTransmissions.add(
                new SentPacket(-1, Fate.deliver(), sourcePort, ecn, nowNs, packet, Optional.of(sourceAddress)));
    }

    /**
     * Every packet {@link #sendUnimpaired} put on the wire (index -1), in wire order: the peer's own ACKs and a case's
     * packets sent around the impairment, which {@link #transmissions()} does not hold.
     */
    public List<SentPacket> controlTransmissions() {
        return List.copyOf(controlTransmissions);
    }

    /**
     * How many packets this sender has put on the link, impaired or not (a packet its impairment dropped is not
     * counted, a duplicated one is counted per copy): set against the DUT's {@code rx_packets}, it shows what the
     * link lost on the way.
     */
    public long packetsTransmitted() {
        return transmitted.get();
    }

    private void transmitAndRelease(SentPacket decision) throws IOException {
        transmit(decision);
        List<SentPacket> due = new ArrayList<>();
        for (Iterator<Held> it = held.iterator(); it.hasNext(); ) {
            Held h = it.next();
            if (--h.remaining <= 0) {
                due.add(h.packet);
                it.remove();
            }
        }
        for (SentPacket packet : due) {
            transmit(packet);
        }
    }

    private void transmit(SentPacket packet) throws IOException {
        long nowNs = link.nowNs();
        link.send(packet.bytes(), packet.sourcePort(), packet.ecn());
        transmitted.incrementAndGet();
        transmissions.add(new SentPacket(
                packet.index(), Fate.deliver(), packet.sourcePort(), packet.ecn(), nowNs, packet.bytes()));
    }

    private void schedule(SentPacket packet, Duration delay) {
        if (scheduler == null) {
            scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "mrconf-peer-delay");
                t.setDaemon(true);
                return t;
            });
        }
        delayedInFlight++;
        scheduler.schedule(
                () -> {
                    synchronized (this) {
                        try {
                            transmitAndRelease(packet);
                        } catch (IOException e) {
                            if (delayedFailure == null) {
                                delayedFailure = e;
                            }
                        } finally {
                            delayedInFlight--;
                            notifyAll();
                        }
                    }
                },
                delay.toNanos(),
                TimeUnit.NANOSECONDS);
    }

    /**
     * Sends every held (reordered) packet now and waits up to {@code timeout} for delayed ones to go out.
     *
     * @throws IOException if a delayed send failed, or delayed packets are still pending at the timeout
     */
    public synchronized void flush(Duration timeout) throws IOException {
        List<Held> release = new ArrayList<>(held);
        held.clear();
        for (Held h : release) {
            transmit(h.packet);
        }
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (delayedInFlight > 0) {
            long remainingNs = deadlineNs - System.nanoTime();
            if (remainingNs <= 0) {
                throw new IOException(delayedInFlight + " delayed packets still pending after " + timeout);
            }
            try {
                TimeUnit.NANOSECONDS.timedWait(this, remainingNs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while flushing delayed packets", e);
            }
        }
        rethrowDelayedFailure();
    }

    private void rethrowDelayedFailure() throws IOException {
        if (delayedFailure != null) {
            IOException failure = delayedFailure;
            delayedFailure = null;
            throw new IOException("a delayed packet could not be sent: " + failure.getMessage(), failure);
        }
    }

    /** Every packet the peer was asked to send, with its fate, in order. */
    public synchronized List<SentPacket> decisions() {
        return List.copyOf(decisions);
    }

    /** Every copy that went on the wire, in wire order. */
    public synchronized List<SentPacket> transmissions() {
        return List.copyOf(transmissions);
    }

    public synchronized Ecn defaultEcn() {
        return defaultEcn;
    }

    public WireLink link() {
        return link;
    }

    /** Stops the delay thread; held and pending packets are discarded. */
    @Override
    public synchronized void close() {
        held.clear();
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }
}
