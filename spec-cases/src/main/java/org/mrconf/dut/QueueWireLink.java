package org.mrconf.dut;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.apiguardian.api.API;
import org.mrconf.pcap.DecodedFrame;
import org.mrconf.pcap.Ecn;
import org.mrconf.pcap.EncodeOptions;
import org.mrconf.pcap.FrameCodec;
import org.mrconf.pcap.FrameDecodeException;
import org.mrconf.pcap.MacAddress;
import org.mrconf.pcap.UdpFrame;

/**
 * A wire link in memory, for a DUT in the same process (the CLI's embedded reference). It is built from two JDK
 * functional interfaces: a {@link Consumer} that takes every datagram the tester sends, and a {@link LongSupplier}
 * clock that stamps what the DUT sends back through {@link #deliverFromDut}. Nothing is lost, reordered or
 * re-marked in between, so ECN and source addresses are exact in both directions.
 *
 * <pre>{@code
 * QueueWireLink link = new QueueWireLink(tester, dut, datagram -> dutThread.submit(() -> feed(datagram)),
 *     System::nanoTime);
 * // the embedded DUT's transmitter:
 * link.deliverFromDut(new Datagram(bytes, dut, tester, Ecn.ECT_0));
 * }</pre>
 *
 * <p>{@link #carryingFrames} makes a link that carries whole Ethernet frames instead, both ways, for a DUT that
 * sees them below any host stack: the tester builds every frame it sends ({@link FrameSender}, so a test can send a
 * wrong or zero UDP checksum, spec clause 4.1.6), and decodes every frame the DUT sends with its checksum verdicts
 * ({@link CapturedPacket#frame()}).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class QueueWireLink implements WireLink {
    /** The MAC labels of the two ends of a frame-carrying link (locally administered addresses). */
    private static final MacAddress TESTER_MAC = MacAddress.parse("02:00:00:00:00:02");

    private static final MacAddress DUT_MAC = MacAddress.parse("02:00:00:00:00:01");

    private final InetSocketAddress tester;
    private final InetSocketAddress dut;
    private final Consumer<Datagram> toDut;
    private final LongSupplier clock;
    /** Where whole frames go, on a frame-carrying link; null on a datagram link. */
    private final Consumer<byte[]> framesToDut;

    private final LinkedBlockingQueue<CapturedPacket> fromDut = new LinkedBlockingQueue<>();
    private final AtomicLong undecodableFrames = new AtomicLong();
    private volatile DeviceStalls deviceStalls = DeviceStalls.NONE;
    private volatile boolean closed;

    /**
     * @param tester the tester's address and MetaRoCE port, as the DUT is told
     * @param dut    the DUT's address and MetaRoCE port
     * @param toDut  receives every datagram the tester sends, on the sending thread; it must not block for long
     * @param clock  nanoseconds, stamping received packets
     */
    public QueueWireLink(
            InetSocketAddress tester, InetSocketAddress dut, Consumer<Datagram> toDut, LongSupplier clock) {
        this.tester = Objects.requireNonNull(tester, "tester");
        this.dut = Objects.requireNonNull(dut, "dut");
        this.toDut = Objects.requireNonNull(toDut, "toDut");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.framesToDut = null;
    }

    private QueueWireLink(
            InetSocketAddress tester, InetSocketAddress dut, LongSupplier clock, Consumer<byte[]> framesToDut) {
        this.tester = Objects.requireNonNull(tester, "tester");
        this.dut = Objects.requireNonNull(dut, "dut");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.framesToDut = Objects.requireNonNull(framesToDut, "framesToDut");
        this.toDut = null;
    }

    /**
     * A link in memory that carries whole Ethernet II frames both ways: {@code framesToDut} receives every frame the
     * tester sends (on the sending thread), and the DUT hands its own frames to {@link #deliverFrameFromDut}. The
     * addresses decide IPv4 or IPv6.
     */
    public static QueueWireLink carryingFrames(
            InetSocketAddress tester, InetSocketAddress dut, Consumer<byte[]> framesToDut, LongSupplier clock) {
        return new QueueWireLink(tester, dut, clock, framesToDut);
    }

    /**
     * Hands a whole frame the DUT sent to the tester side (a frame-carrying link); thread-safe. A frame that does not
     * decode as Ethernet/IP/UDP is counted ({@link #undecodableFrames}) and not received; a bad checksum is kept, in
     * the decoded frame's verdicts, for a test to judge.
     */
    public void deliverFrameFromDut(byte[] frame) {
        if (closed) {
            return;
        }
        final DecodedFrame decoded;
        try {
            decoded = FrameCodec.decode(frame);
        } catch (FrameDecodeException e) {
            undecodableFrames.incrementAndGet();
            return;
        }
        final UdpFrame udp = decoded.frame();
        fromDut.add(new CapturedPacket(
                udp.payloadBytes(),
                udp.srcIp(),
                udp.srcPort(),
                udp.dstPort(),
                udp.ecn(),
                true,
                clock.getAsLong(),
                Optional.of(decoded)));
    }

    /** How many frames from the DUT did not decode as Ethernet/IP/UDP (a frame-carrying link). */
    public long undecodableFrames() {
        return undecodableFrames.get();
    }

    /**
     * Hands a datagram the DUT sent to the tester side; thread-safe. Datagrams for another destination are kept
     * too, so a test can see a DUT sending to the wrong port. Ignored once the link is closed.
     */
    public void deliverFromDut(Datagram datagram) {
        if (closed) {
            return;
        }
        fromDut.add(new CapturedPacket(
                datagram.payload(),
                datagram.source().getAddress(),
                datagram.source().getPort(),
                datagram.destination().getPort(),
                datagram.ecn(),
                true,
                clock.getAsLong(),
                Optional.empty()));
    }

    /** {@link #deliverFromDut} as a consumer, for wiring. */
    public Consumer<Datagram> fromDut() {
        return this::deliverFromDut;
    }

    @Override
    public Set<Capability> capabilities() {
        final Set<Capability> capabilities =
                EnumSet.of(Capability.SEND_ECN, Capability.RECEIVE_ECN, Capability.OTHER_SOURCE_ADDRESS);
        if (framesToDut != null) {
            capabilities.add(Capability.MALFORMED_FRAMES);
            capabilities.add(Capability.WIRE_CHECKSUMS); // the DUT's frames are exactly as it built them
        }
        return capabilities;
    }

    /** A frame-carrying link builds every frame itself, so it sends any frame a test builds. */
    @Override
    public Optional<FrameSender> frameSender() {
        if (framesToDut == null) {
            return Optional.empty();
        }
        return Optional.of(new FrameSender() {
            @Override
            public UdpFrame.Builder frameTemplate() {
                return template();
            }

            @Override
            public void sendFrame(UdpFrame frame, EncodeOptions encodeOptions) throws ClosedChannelException {
                sendWholeFrame(frame, encodeOptions);
            }
        });
    }

    private UdpFrame.Builder template() {
        return FrameSender.template(TESTER_MAC, DUT_MAC, tester, dut);
    }

    private void sendWholeFrame(UdpFrame frame, EncodeOptions encodeOptions) throws ClosedChannelException {
        if (closed) {
            throw new ClosedChannelException();
        }
        framesToDut.accept(FrameCodec.encode(frame, encodeOptions));
    }

    @Override
    public void send(byte[] packet, int sourcePort, Ecn ecn) throws ClosedChannelException {
        sendFrom(tester.getAddress(), packet, sourcePort, ecn);
    }

    @Override
    public void sendFrom(InetAddress sourceAddress, byte[] packet, int sourcePort, Ecn ecn)
            throws ClosedChannelException {
        if (closed) {
            throw new ClosedChannelException();
        }
        UdpWireLink.checkPort(sourcePort);
        if (framesToDut != null) {
            sendWholeFrame(
                    template()
                            .srcIp(sourceAddress)
                            .srcPort(sourcePort)
                            .ecn(ecn)
                            .payload(packet)
                            .build(),
                    EncodeOptions.DEFAULT);
            return;
        }
        toDut.accept(new Datagram(packet, new InetSocketAddress(sourceAddress, sourcePort), dut, ecn));
    }

    /** A neighbour of the tester's address: in memory any address but the tester's will do. */
    @Override
    public Optional<InetAddress> alternateSourceAddress() {
        return Optional.of(UdpWireLink.neighbourAddress(tester.getAddress(), dut.getAddress()));
    }

    @Override
    public Optional<CapturedPacket> receive(Duration timeout) throws ClosedChannelException {
        if (closed && fromDut.isEmpty()) {
            throw new ClosedChannelException();
        }
        try {
            return Optional.ofNullable(fromDut.poll(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    @Override
    public InetAddress testerAddress() {
        return tester.getAddress();
    }

    @Override
    public int testerPort() {
        return tester.getPort();
    }

    @Override
    public InetSocketAddress dutAddress() {
        return dut;
    }

    @Override
    public void reportDeviceStallsTo(final DeviceStalls sink) {
        deviceStalls = Objects.requireNonNull(sink, "sink");
    }

    /**
     * The device in this process was held back by its host for {@code stallNs}, ending at {@code wakeNs} on this
     * link's clock (the embedded reference's loop woke that late): passed to whoever {@link #reportDeviceStallsTo}.
     */
    public void deviceStalled(final long wakeNs, final long stallNs) {
        deviceStalls.stalled(wakeNs, stallNs);
    }

    @Override
    public long nowNs() {
        return clock.getAsLong();
    }

    @Override
    public void close() {
        closed = true;
    }

    @Override
    public String toString() {
        return "QueueWireLink[tester=" + tester + ", dut=" + dut + (framesToDut != null ? ", frames" : "") + "]";
    }
}
