package org.mrconf.softdut;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import org.mrconf.agent.AgentConfig;
import org.mrconf.agent.ControlAgent;
import org.mrconf.agent.ErrorCode;
import org.mrconf.net.NanoClock;
import org.mrconf.transport.Endpoint;
import org.mrconf.transport.EndpointConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The soft DUT's event loop: the one thread that owns the endpoint and its agent. Each round runs a
 * bounded number of control requests, then a bounded number of received packets, then the endpoint's
 * due timers and the agent's parked polls, and sleeps until the next deadline, a packet or a request.
 * The bounds keep a packet flood from starving the control channel.
 *
 * <p>Memory pressure: when the heap is nearly full after collection ({@link #PRESSURE_FULLNESS}), or after
 * an {@link OutOfMemoryError}, the loop reads packets and drops them unprocessed for a while, counting
 * them ({@code x_memory_pressure_drops}), and keeps answering control requests; it never stops serving
 * because memory ran short.
 *
 * <p>Sleeping: {@link Selector#select(long)} has millisecond resolution, so a deadline less than a
 * millisecond away is waited for with short parks between non-blocking polls of the sockets.
 */
final class DutLoop implements Runnable {
    /** Most packets handled per round before the control queue is looked at again. */
    static final int PACKET_BUDGET = 256;
    /** Most control requests run per round. */
    static final int CONTROL_BUDGET = 32;

    /** Heap share in use after collection above which the loop drops packets instead of handling them. */
    static final double PRESSURE_FULLNESS = 0.90;
    /** How long the loop only drops packets after running out of memory or finding the heap full. */
    static final long PRESSURE_HOLD_NS = 100_000_000;
    /** How often the loop looks at the heap. */
    private static final long GAUGE_INTERVAL_NS = 1_000_000;

    private static final long SELECT_RESOLUTION_NS = 1_000_000;
    /** The least lateness, beyond {@link #SELECT_RESOLUTION_NS}, reported to {@link #lateWakeups}. */
    private static final long LATE_WAKEUP_NS = 1_000_000;

    private static final long MAX_PARK_NS = 100_000;
    private static final long NO_WAKE_REQUEST = Long.MIN_VALUE;
    private static final int LOGGED_ERRORS = 10;
    private static final Logger LOG = LoggerFactory.getLogger(DutLoop.class);

    private record ControlTask(String line, CompletableFuture<String> reply) {}

    private final Network network;
    private final NanoClock clock;
    private final Selector selector;
    private final Endpoint endpoint;
    private final ControlAgent agent;
    private final ConcurrentLinkedQueue<ControlTask> control = new ConcurrentLinkedQueue<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final Network.Inbound inbound = this::onPacket;
    private final Network.Inbound discard = this::onPacketUnderPressure;
    private final MemoryGauge memory;
    private long nextGaugeNs;
    private long pressureUntilNs;
    private boolean underPressure;
    private long memoryPressureDrops;
    private long outOfMemoryErrors;
    private volatile boolean running = true;
    private volatile boolean sleeping;
    /**
     * When another thread first asked the sleeping loop to wake, or {@link #NO_WAKE_REQUEST}: how long the loop then
     * took to run is the host's lateness, as an oversleep is ({@link OversleepMeter#wakeRequested}).
     */
    private final java.util.concurrent.atomic.AtomicLong wakeRequestNs =
            new java.util.concurrent.atomic.AtomicLong(NO_WAKE_REQUEST);

    private volatile Thread thread;
    private boolean wakeupRequested;
    /** How late each wake-up came, past what the loop asked for. */
    private final OversleepMeter oversleep = new OversleepMeter(SELECT_RESOLUTION_NS);

    private volatile LateWakeups lateWakeups = LateWakeups.NONE;
    private long loopErrors;

    DutLoop(
            final Network network,
            final EndpointConfig endpointConfig,
            final AgentConfig.Builder agentConfig,
            final NanoClock clock)
            throws IOException {
        this(network, endpointConfig, agentConfig, clock, MemoryGauge.jvm());
    }

    DutLoop(
            final Network network,
            final EndpointConfig endpointConfig,
            final AgentConfig.Builder agentConfig,
            final NanoClock clock,
            final MemoryGauge memory)
            throws IOException {
        this.network = network;
        this.memory = memory;
        this.clock = clock;
        this.selector = Selector.open();
        this.endpoint = new Endpoint(endpointConfig, network.transmitter(), clock);
        if (endpointConfig.defects().has(org.mrconf.defect.Defect.ANSWER_TO_SOURCE_PORT)) {
            network.peers().answerToSourcePort();
        }
        if (endpointConfig.defects().has(org.mrconf.defect.Defect.SECOND_PEER_PORT_IGNORED)) {
            network.peers().ignoreSecondPeerPort();
        }
        // Work posted by the agent runs on this thread, so a flag is enough to ask for onWakeup.
        this.endpoint.wakeupListener(() -> wakeupRequested = true);
        this.agent = new ControlAgent(
                endpoint,
                network.peers(),
                agentConfig.extraCounters(this::counters).build());
    }

    /** Queues a request line for the agent; any thread. The future always completes with one line. */
    CompletableFuture<String> submit(final String line) {
        final CompletableFuture<String> reply = new CompletableFuture<>();
        if (!running) {
            reply.complete(stoppedLine());
            return reply;
        }
        if (Thread.currentThread() == thread) {
            reply.complete(ControlAgent.errorLine(
                    ErrorCode.INTERNAL, "control requests cannot come from the soft DUT's own thread"));
            return reply;
        }
        control.add(new ControlTask(line, reply));
        wake();
        if (stopped.getCount() == 0) {
            failQueued();
        }
        return reply;
    }

    /** Wakes the loop if it sleeps; any thread. */
    void wake() {
        if (sleeping) {
            wakeRequestNs.compareAndSet(NO_WAKE_REQUEST, clock.nanoTime());
            selector.wakeup();
            final Thread t = thread;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
    }

    /** Asks the loop to stop after its current round; any thread. */
    void stop() {
        running = false;
        selector.wakeup();
        final Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    boolean isRunning() {
        return stopped.getCount() > 0;
    }

    CountDownLatch stopped() {
        return stopped;
    }

    /** Waits for the loop thread itself to end: the latch opens just before it returns. */
    void joinThread(final long millis) throws InterruptedException {
        final Thread t = thread;
        if (t != null && t != Thread.currentThread()) {
            t.join(millis);
        }
    }

    boolean isLoopThread() {
        return Thread.currentThread() == thread;
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        try {
            network.register(selector);
            while (running) {
                runRound();
            }
        } catch (final IOException | RuntimeException | Error e) {
            LOG.error("the soft DUT loop stopped", e);
        } finally {
            running = false;
            try {
                agent.shutdown();
            } catch (final RuntimeException e) {
                LOG.warn("cannot answer waiting polls", e);
            }
            network.close();
            try {
                selector.close();
            } catch (final IOException e) {
                // Nothing useful to do.
            }
            stopped.countDown();
            failQueued();
        }
    }

    /** Tells {@code listener} of each wake-up later than the loop's deadline (see {@link LateWakeups}). */
    void onLateWakeups(final LateWakeups listener) {
        lateWakeups = java.util.Objects.requireNonNull(listener, "listener");
    }

    private void runRound() throws IOException {
        final long startNs = clock.nanoTime();
        final long requestNs = wakeRequestNs.getAndSet(NO_WAKE_REQUEST);
        if (requestNs != NO_WAKE_REQUEST) {
            oversleep.wakeRequested(requestNs);
        }
        final long lateNs = oversleep.woke(startNs);
        if (lateNs >= LATE_WAKEUP_NS) {
            lateWakeups.wokeLate(startNs, lateNs);
        }
        ControlTask task;
        for (int i = 0; i < CONTROL_BUDGET && (task = control.poll()) != null; i++) {
            try {
                agent.handle(task.line, startNs, task.reply::complete);
            } catch (final OutOfMemoryError e) {
                onOutOfMemory(startNs);
                task.reply.complete(ControlAgent.errorLine(ErrorCode.INTERNAL, "the soft DUT is out of memory"));
            }
        }
        checkMemory(startNs);
        final int packets = network.receive(underPressure ? discard : inbound, PACKET_BUDGET);
        final long nowNs = clock.nanoTime();
        final long wakeupNs = endpoint.nextWakeupNs();
        if (wakeupRequested || (wakeupNs != Long.MAX_VALUE && wakeupNs - nowNs <= 0)) {
            wakeupRequested = false;
            try {
                endpoint.onWakeup(nowNs);
            } catch (final RuntimeException e) {
                onError(e);
            } catch (final OutOfMemoryError e) {
                onOutOfMemory(nowNs);
            }
        }
        try {
            agent.onTick(nowNs);
        } catch (final OutOfMemoryError e) {
            onOutOfMemory(nowNs);
        }
        idle(packets >= PACKET_BUDGET || wakeupRequested || !control.isEmpty() || network.hasPending());
    }

    private void idle(final boolean busy) throws IOException {
        if (busy || !running) {
            selector.selectNow();
            selector.selectedKeys().clear();
            return;
        }
        wakeRequestNs.set(
                NO_WAKE_REQUEST); // a request seen while the loop was still awake is no lateness of this sleep
        sleeping = true;
        try {
            if (!control.isEmpty() || network.hasPending() || !running) {
                selector.selectNow();
                return;
            }
            final long deadlineNs = Math.min(endpoint.nextWakeupNs(), agent.nextDeadlineNs());
            if (deadlineNs == Long.MAX_VALUE) {
                oversleep.sleepingWithoutDeadline();
                selector.select();
                return;
            }
            final long nowNs = clock.nanoTime();
            final long waitNs = deadlineNs - nowNs;
            oversleep.sleeping(deadlineNs, nowNs);
            if (waitNs <= 0) {
                selector.selectNow();
            } else if (waitNs < SELECT_RESOLUTION_NS) {
                if (selector.selectNow() == 0) {
                    LockSupport.parkNanos(Math.min(waitNs, MAX_PARK_NS));
                }
            } else {
                selector.select(waitNs / SELECT_RESOLUTION_NS);
            }
        } finally {
            sleeping = false;
            selector.selectedKeys().clear();
        }
    }

    private void onPacket(
            final InetAddress source,
            final int sourcePort,
            final int ecn,
            final ByteBuffer buffer,
            final int offset,
            final int length) {
        final int node = network.peers().nodeOf(source, sourcePort);
        try {
            endpoint.onPacket(node, sourcePort, ecn, buffer, offset, length, clock.nanoTime());
        } catch (final RuntimeException e) {
            onError(e);
        } catch (final OutOfMemoryError e) {
            memoryPressureDrops++;
            onOutOfMemory(clock.nanoTime());
        }
    }

    @SuppressWarnings("unused") // a Network.Inbound
    private void onPacketUnderPressure(
            final InetAddress source,
            final int sourcePort,
            final int ecn,
            final ByteBuffer buffer,
            final int offset,
            final int length) {
        memoryPressureDrops++;
    }

    /** Looks at the heap now and then; decides whether this round's packets are handled or dropped. */
    private void checkMemory(final long nowNs) {
        if (nowNs - nextGaugeNs >= 0) {
            nextGaugeNs = nowNs + GAUGE_INTERVAL_NS;
            if (memory.heapFullness() > PRESSURE_FULLNESS) {
                pressureUntilNs = nowNs + PRESSURE_HOLD_NS;
            }
        }
        final boolean pressure = pressureUntilNs - nowNs > 0;
        if (pressure != underPressure) {
            underPressure = pressure;
            if (pressure) {
                LOG.warn("the heap is nearly full: the soft DUT drops received packets until it is not");
            } else {
                LOG.info("memory pressure over; {} packets were dropped so far", memoryPressureDrops);
            }
        }
    }

    private void onOutOfMemory(final long nowNs) {
        outOfMemoryErrors++;
        pressureUntilNs = nowNs + PRESSURE_HOLD_NS;
    }

    private void onError(final RuntimeException e) {
        if (loopErrors++ < LOGGED_ERRORS) {
            LOG.error("the endpoint failed on this input; the soft DUT goes on", e);
        }
    }

    private Map<String, Long> counters() {
        final Map<String, Long> counters = new LinkedHashMap<>(network.counters());
        counters.put("loop_errors", loopErrors);
        counters.put("memory_pressure_drops", memoryPressureDrops);
        counters.put("out_of_memory_errors", outOfMemoryErrors);
        return counters;
    }

    private void failQueued() {
        ControlTask task;
        while ((task = control.poll()) != null) {
            task.reply.complete(stoppedLine());
        }
    }

    private static String stoppedLine() {
        return ControlAgent.errorLine(ErrorCode.INTERNAL, "the soft DUT is stopped");
    }
}
