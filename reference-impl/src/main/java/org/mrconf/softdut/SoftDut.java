package org.mrconf.softdut;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.mrconf.agent.AgentConfig;
import org.mrconf.agent.ControlAgent;
import org.mrconf.agent.ControlServer;
import org.mrconf.agent.ErrorCode;
import org.mrconf.agent.RequestHandler;
import org.mrconf.agent.TokenPolicy;
import org.mrconf.defect.Defect;
import org.mrconf.defect.Defects;
import org.mrconf.net.NanoClock;
import org.mrconf.net.UdpFraming;
import org.mrconf.transport.EndpointConfig;
import org.mrconf.transport.Feature;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reference soft DUT: a reference endpoint on its own event-loop thread, reachable on the wire over
 * UDP (or in memory) and through the DUT control protocol over TCP (or {@link #control}).
 *
 * <p>Two variants share the loop. {@link #start} binds UDP sockets and, unless disabled, the control
 * server; it is what {@code metaroce dut serve} runs. {@link #inMemory} binds nothing: packets leave
 * through an {@link OutboundSink} and arrive through {@link #deliver}, for running the suite against an
 * embedded device in one process. Both are closed with {@link #close}.
 *
 * <p>As on a real device, the wire and the control channel are not ordered with respect to each other:
 * a packet delivered before a control request may be handled after it. Tests that need a packet's effect
 * poll for it (a counter, a completion).
 */
public final class SoftDut implements AutoCloseable, RequestHandler {
    /** The optional clauses of {@link ControlAgent#OPTIONAL_CLAUSES} in the congestion profile (8.2.4, 10.1.3, 10.1.5). */
    private static final List<String> CONGESTION_OPTIONAL_CLAUSES = List.of("8.2.4", "10.1.3", "10.1.5");

    /** The optional clauses of {@link ControlAgent#OPTIONAL_CLAUSES} in the multipath profile (4.1.5, 6.3.4, 8.1.6, 10.2.2). */
    private static final List<String> MULTIPATH_OPTIONAL_CLAUSES = List.of("4.1.5", "6.3.4", "8.1.6", "10.2.2");

    /** Clause 6.6.5: the long-haul profile needs a minimum RTO of up to 20 ms and a maximum RTO of at least 1 s. */
    private static final long LONG_HAUL_MIN_RTO_NS = 20_000_000L;

    private static final long LONG_HAUL_MAX_RTO_NS = 1_000_000_000L;

    /** Clause 6.6.5: the path RTT a long-haul device's initial RTO must outlast, with its timer tolerance. */
    private static final long LONG_HAUL_RTT_NS = 10_000_000L;

    private static final Logger LOG = LoggerFactory.getLogger(SoftDut.class);
    private static final long STOP_WAIT_MS = 5_000;

    private final SoftDutOptions options;
    private final DutLoop loop;
    private final Thread thread;
    private final InMemoryNetwork memory;
    private final int udpPort;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile ControlServer controlServer;

    private SoftDut(
            final SoftDutOptions options,
            final Network network,
            final InMemoryNetwork memory,
            final int udpPort,
            final InetAddress controlBind)
            throws IOException {
        this.options = options;
        this.memory = memory;
        this.udpPort = udpPort;
        final EndpointConfig endpointConfig = options.endpoint().toBuilder()
                .ipv6(options.bindAddress() instanceof Inet6Address)
                // The longest message it accepts is what hello declares: no longer than its regions may be.
                .maxMessageLength(Math.min(
                        options.endpoint().maxMessageLengthBytes(),
                        Math.min(ControlAgent.MAX_MESSAGE_LENGTH, options.memoryBudgetBytes())))
                // What packets may make the DUT allocate stays a small share of its heap.
                .receiveStateBudget(Math.min(
                        options.endpoint().receiveStateBudgetBytes(),
                        Math.max(1 << 20, Runtime.getRuntime().maxMemory() / 8)))
                .build();
        final List<String> profiles =
                new ArrayList<>(AgentConfig.builder().build().profiles());
        if (options.bindAddress() instanceof Inet6Address) {
            profiles.add("ipv6");
        }
        if (!network.seesReceivedEcn()) {
            profiles.remove("congestion"); // CE marks cannot be counted (clause 8.2.5)
        }
        if (options.entropyPorts() < 2) {
            profiles.remove("multipath"); // one source port cannot re-path (clause 6.6.4)
        }
        // Clause 6.6.5 also needs an initial RTO longer than a 10 ms RTT plus the declared timer tolerance: slower
        // timers
        // alone (a larger maximum RTO) do not make a long-haul device, whose first packet must not be resent.
        final long longHaulInitialRtoNs =
                LONG_HAUL_RTT_NS + AgentConfig.builder().build().timerToleranceNs();
        if (endpointConfig.minRtoNs() <= LONG_HAUL_MIN_RTO_NS
                && endpointConfig.maxRtoNs() >= LONG_HAUL_MAX_RTO_NS
                && endpointConfig.initialRtoNs() > longHaulInitialRtoNs) {
            profiles.add("long-haul"); // timers a 10 ms path RTT needs (clause 6.6.5)
        }
        final List<String> optionalClauses = new ArrayList<>(ControlAgent.OPTIONAL_CLAUSES);
        if (!profiles.contains("congestion") || !endpointConfig.offers(Feature.CONGESTION)) {
            // The congestion profile's SHOULD and MAY clauses go with it (spec clause 12.1.5: an optional clause of a
            // profile not claimed is not implemented either).
            optionalClauses.removeAll(CONGESTION_OPTIONAL_CLAUSES);
        }
        if (!profiles.contains("multipath")) {
            optionalClauses.removeAll(MULTIPATH_OPTIONAL_CLAUSES);
        }
        if (!endpointConfig.tailLossProbe()) {
            optionalClauses.remove("6.3.4");
        }
        if (!endpointConfig.choices().answersUnknownConnections()) {
            optionalClauses.remove("11.2.3"); // a MAY this device leaves out (freedom F-29)
        }
        if (endpointConfig.reorderToleranceHoldsGaps()) {
            optionalClauses.add("6.3.3"); // a tolerance that can hold a gap back (spec clause 6.3.3, a MAY)
        }
        if (memory == null) {
            // On sockets, ACKs leave from the pool socket the peer's port maps to, not from that port (clause 8.1.6).
            optionalClauses.remove("8.1.6");
        }
        final AgentConfig.Builder agentConfig = AgentConfig.builder()
                .profiles(profiles)
                .optionalClauses(optionalClauses)
                .wire(udpPort, List.of(options.bindAddress().getHostAddress()))
                .access(controlBind, options.token())
                .memoryBudget(options.memoryBudgetBytes());
        this.loop = new DutLoop(network, endpointConfig, agentConfig, NanoClock.system());
        this.thread = new Thread(loop, "mrconf-softdut-" + udpPort);
        this.thread.setDaemon(true);
    }

    /**
     * Starts a soft DUT on UDP: binds the MetaRoCE port, the entropy sockets and (unless
     * {@code controlPort} is -1) the control server, then starts the loop.
     *
     * @throws IllegalArgumentException off loopback without a token of at least 16 characters; nothing is bound
     * @throws IOException              if a socket cannot be bound; nothing stays bound
     */
    public static SoftDut start(final SoftDutOptions options) throws IOException {
        final boolean withControl = options.controlPort() >= 0;
        if (withControl) {
            TokenPolicy.check(options.bindAddress(), options.token());
        }
        final UdpNetwork network = UdpNetwork.open(options.bindAddress(), options.udpPort(), options.entropyPorts());
        final SoftDut dut;
        try {
            final Network carrier = options.injectedLoss() > 0
                    ? new LossyNetwork(network, options.injectedLoss(), options.injectedLossSeed())
                    : network;
            dut = new SoftDut(options, carrier, null, network.port(), withControl ? options.bindAddress() : null);
        } catch (final IOException | RuntimeException e) {
            network.close();
            throw e;
        }
        dut.thread.start();
        if (withControl) {
            try {
                dut.controlServer =
                        ControlServer.start(options.bindAddress(), options.controlPort(), options.token(), dut);
            } catch (final IOException | RuntimeException e) {
                dut.close();
                throw e;
            }
        }
        LOG.info(
                "soft DUT on udp {}:{}{}",
                options.bindAddress().getHostAddress(),
                dut.udpPort,
                withControl
                        ? ", control on tcp " + options.bindAddress().getHostAddress() + ":" + dut.controlPort()
                        : "");
        return dut;
    }

    /**
     * Starts a soft DUT that binds nothing: packets it sends go to {@code sink} (on the DUT's thread) and
     * packets for it come through {@link #deliver}; the control protocol is {@link #control}. The options'
     * bind address and UDP port are only what {@code hello} reports; the control port is ignored.
     */
    public static SoftDut inMemory(final SoftDutOptions options, final OutboundSink sink) {
        Objects.requireNonNull(sink, "sink");
        final InMemoryNetwork network = new InMemoryNetwork(sink);
        return startInMemory(options, network);
    }

    /**
     * Starts a soft DUT that binds nothing and carries whole Ethernet frames both ways, as a NIC below any host stack
     * sees them: it builds the frames it sends (to {@code sink}, on the DUT's thread) and checks the IP and UDP
     * checksums of those that arrive through {@link #deliverFrame} by spec clause 4.1.6. Its address is the options'
     * bind address (only a label: nothing is bound); otherwise as {@link #inMemory}.
     */
    public static SoftDut inMemoryFrames(final SoftDutOptions options, final FrameSink sink) {
        Objects.requireNonNull(sink, "sink");
        final InMemoryNetwork network = new InMemoryNetwork(new InMemoryNetwork.FrameCarriage(
                new UdpFraming(checksumRules(options.endpoint().defects())),
                options.bindAddress(),
                options.udpPort(),
                sink));
        return startInMemory(options, network);
    }

    private static SoftDut startInMemory(final SoftDutOptions options, final InMemoryNetwork network) {
        final SoftDut dut;
        try {
            dut = new SoftDut(options, network, network, options.udpPort(), null);
        } catch (final IOException e) {
            throw new IllegalStateException("cannot open a selector", e);
        }
        dut.thread.start();
        return dut;
    }

    /** Clause 4.1.6 as the active defects bend it. */
    private static UdpFraming.Rules checksumRules(final Defects defects) {
        return new UdpFraming.Rules(
                defects.has(Defect.UDP_CHECKSUM_UNCHECKED),
                defects.has(Defect.IPV4_ZERO_UDP_CHECKSUM_DROPPED),
                defects.has(Defect.IPV6_ZERO_UDP_CHECKSUM_ACCEPTED),
                defects.has(Defect.IPV6_UDP_CHECKSUM_OMITTED),
                defects.has(Defect.UDP_CHECKSUM_WITHOUT_PSEUDO_HEADER));
    }

    /**
     * Frame variant only ({@link #inMemoryFrames}): one whole Ethernet frame arrives at the DUT. Any thread; never
     * blocks. The array is kept, not copied: the caller must not change it. Returns false if the receive queue was
     * full and the frame was dropped.
     *
     * @throws UnsupportedOperationException on a soft DUT that does not carry frames
     */
    public boolean deliverFrame(final byte[] frame) {
        if (memory == null || !memory.carriesFrames()) {
            throw new UnsupportedOperationException("deliverFrame() is for a soft DUT started by inMemoryFrames");
        }
        final boolean queued = memory.offerFrame(frame);
        loop.wake();
        return queued;
    }

    /**
     * Tells {@code listener} of each time the loop woke later than its next timer was due, because its host held it
     * back (see {@link LateWakeups}); the embedded reference charges these to the host, as the tester does its own
     * stalls.
     */
    public void onLateWakeups(final LateWakeups listener) {
        loop.onLateWakeups(listener);
    }

    /**
     * In-memory variant only: a packet arrives at the DUT from {@code source}:{@code sourcePort} with IP
     * ECN field {@code ecn}. Any thread; never blocks. The array is copied. Returns false if the receive
     * queue was full and the packet was dropped (counted as {@code x_memory_rx_queue_drops}).
     *
     * @throws UnsupportedOperationException on a UDP soft DUT
     */
    public boolean deliver(final byte[] packet, final InetAddress source, final int sourcePort, final int ecn) {
        if (memory == null || memory.carriesFrames()) {
            throw new UnsupportedOperationException(
                    "deliver() is for the in-memory soft DUT; send UDP to port " + udpPort + " or use deliverFrame");
        }
        Objects.requireNonNull(source, "source");
        final boolean queued = memory.offer(packet.clone(), source, sourcePort, ecn & 3);
        loop.wake();
        return queued;
    }

    /**
     * Runs one control request line and returns its response line, waiting as long as the request does
     * (a {@code poll_completions} waits up to its {@code waitMs}). Any thread except the DUT's own.
     */
    public String control(final String requestLine) {
        try {
            return loop.submit(requestLine).get();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return ControlAgent.errorLine(ErrorCode.INTERNAL, "interrupted while waiting for the answer");
        } catch (final ExecutionException e) {
            return ControlAgent.errorLine(ErrorCode.INTERNAL, String.valueOf(e.getCause()));
        }
    }

    /** Queues one control request line; the future completes with its response line. Any thread. */
    @Override
    public CompletableFuture<String> submit(final String requestLine) {
        return loop.submit(requestLine);
    }

    public SoftDutOptions options() {
        return options;
    }

    /** The MetaRoCE UDP port: the bound one, or for the in-memory variant the one it reports. */
    public int udpPort() {
        return udpPort;
    }

    /** The control server's bound TCP port, or -1 when there is none. */
    public int controlPort() {
        final ControlServer server = controlServer;
        return server == null ? -1 : server.port();
    }

    /** Whether the loop thread still runs. */
    public boolean isRunning() {
        return loop.isRunning();
    }

    /**
     * Serves until {@link #close} is called or the JVM is asked to stop (SIGINT, SIGTERM: a shutdown hook
     * closes the DUT), then returns with every socket released. For {@code main}-like callers.
     */
    public void runUntilSignal() {
        final Thread hook = new Thread(this::close, "mrconf-softdut-shutdown");
        boolean hooked = false;
        try {
            Runtime.getRuntime().addShutdownHook(hook);
            hooked = true;
            loop.stopped().await();
        } catch (final IllegalStateException e) {
            // The JVM is already shutting down.
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (hooked) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (final IllegalStateException e) {
                    // Shutting down: the hook is running or has run.
                }
            }
            close();
        }
    }

    /**
     * Stops the control server and the loop and waits for the loop to release the sockets. Waiting polls
     * are answered first; requests after this get an {@code internal} error. Idempotent; any thread.
     */
    @Override
    public void close() {
        final boolean first = closed.compareAndSet(false, true);
        if (first) {
            final ControlServer server = controlServer;
            if (server != null) {
                server.close();
            }
            loop.stop();
        }
        if (loop.isLoopThread()) {
            return;
        }
        try {
            if (!loop.stopped().await(STOP_WAIT_MS, TimeUnit.MILLISECONDS)) {
                LOG.warn("the soft DUT loop did not stop within {} ms", STOP_WAIT_MS);
            } else {
                loop.joinThread(STOP_WAIT_MS);
            }
            if (first && loop.stopped().getCount() == 0) {
                LOG.info("soft DUT on udp port {} stopped; its sockets are released", udpPort);
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
