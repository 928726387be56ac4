package org.mrconf.dut;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apiguardian.api.API;
import org.mrconf.pcap.DecodedFrame;
import org.mrconf.pcap.Ecn;
import org.mrconf.pcap.EncodeOptions;
import org.mrconf.pcap.FrameCodec;
import org.mrconf.pcap.FrameDecodeException;
import org.mrconf.pcap.Libpcap;
import org.mrconf.pcap.MacAddress;
import org.mrconf.pcap.UdpFrame;
import org.pcap4j.core.BpfProgram.BpfCompileMode;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapHandle.PcapDirection;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapNetworkInterface;
import org.pcap4j.core.PcapNetworkInterface.PromiscuousMode;
import org.pcap4j.core.Pcaps;
import org.pcap4j.util.LinkLayerAddress;

/**
 * A wire link of whole Ethernet frames on a named interface, through libpcap (Pcap4J live handles): the tester
 * builds every frame itself with {@link FrameCodec}, so it can send any ECN codepoint, any source address and,
 * through {@link #sendFrame(UdpFrame, EncodeOptions)}, deliberately wrong IP or UDP checksums and lengths; and it
 * sees every frame the DUT sends to the tester's address and MetaRoCE port, with ECN and checksum verdicts.
 *
 * <p>No kernel needs to own the tester's address: the link answers ARP requests for it (IPv4, through its
 * {@link ArpResponder}) and resolves the
 * DUT's MAC with ARP when the options do not give it. IPv6 neighbour discovery is not implemented, so over IPv6
 * both MACs must be given and the DUT needs a static neighbour entry for the tester. Needs root (or
 * {@code CAP_NET_RAW}) and libpcap.
 *
 * <p>A daemon thread reads the capture handle and stamps each frame with the options' clock as it is read; a
 * second handle, which captures nothing, sends. Frames that match the capture filter but do not decode as
 * Ethernet/IP/UDP are kept in {@link #frameErrors()} rather than delivered. A DUT on the same host (a veth, or a
 * NIC with transmit checksum offload captured before the offload) shows partial UDP checksums in the captured
 * frames: checksum verdicts are meaningful only for frames that crossed a real wire.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class RawEthernetWireLink implements WireLink, FrameSender {
    /**
     * The longest frame kept whole: a jumbo frame (9,216 bytes) with room to spare. In immediate mode libpcap gives
     * every frame a ring slot of this size, so a larger snaplen makes the ring hold fewer frames: at 256 KiB an 8 MiB
     * ring held 32, and a window's burst of a few hundred packets overflowed it.
     */
    private static final int SNAPLEN = 16_384;

    private static final int READ_TIMEOUT_MS = 20;
    /** The capture ring: about 2,000 frames at {@link #SNAPLEN}, a full 256-packet path window eight times over. */
    private static final int CAPTURE_BUFFER_BYTES = 32 << 20;

    private static final int MAX_KEPT_FRAME_ERRORS = 1000;

    private final RawEthernetOptions options;
    private final PcapHandle capture;
    private final PcapHandle sender;
    private final MacAddress testerMac;
    private final InetAddress alternateSource;
    private final LinkedBlockingQueue<CapturedPacket> received = new LinkedBlockingQueue<>();
    private final List<FrameDecodeException> frameErrors = new ArrayList<>();
    private final ArpResponder arp;
    private final Thread captureThread;
    /** Whether the interface is physical, so that captured checksums are the wire's ({@link #isPhysical}). */
    private final boolean physicalInterface;

    private volatile MacAddress dutMac;
    private volatile boolean running = true;
    private volatile Throwable captureFailure;

    private RawEthernetWireLink(
            RawEthernetOptions options, PcapHandle capture, PcapHandle sender, MacAddress testerMac) {
        this.options = options;
        this.capture = capture;
        this.sender = sender;
        this.testerMac = testerMac;
        this.dutMac = options.dutMac().orElse(null);
        this.alternateSource = options.alternateSource()
                .orElseGet(() -> UdpWireLink.neighbourAddress(
                        options.tester().getAddress(), options.dut().getAddress()));
        this.arp = new ArpResponder(
                testerMac,
                options.tester().getAddress(),
                options.dut().getAddress(),
                options.answerArp(),
                this::sendRawFrame);
        this.captureThread = new Thread(this::captureLoop, "mrconf-raw-capture-" + options.interfaceName());
        this.physicalInterface = isPhysical(options.interfaceName());
        this.captureThread.setDaemon(true);
    }

    /**
     * Opens the capture and send handles on the interface, starts capturing and, if the options give no DUT MAC,
     * resolves it with ARP.
     *
     * @throws IOException                                if the interface does not exist, cannot be opened (not
     *                                                    root?) or the DUT's MAC cannot be resolved
     * @throws org.mrconf.pcap.PcapUnavailableException if libpcap is not installed
     */
    public static RawEthernetWireLink open(RawEthernetOptions options) throws IOException {
        Libpcap.version();
        String name = options.interfaceName();
        PcapNetworkInterface nif;
        try {
            nif = Pcaps.getDevByName(name);
        } catch (PcapNativeException e) {
            throw new IOException("cannot list capture devices: " + e.getMessage(), e);
        }
        if (nif == null) {
            throw new IOException("no capture device named '" + name + "' (is the interface up and are you root?)");
        }
        MacAddress testerMac =
                options.testerMac().isPresent() ? options.testerMac().get() : interfaceMac(nif);
        PcapHandle capture = null;
        PcapHandle sender = null;
        try {
            capture = new PcapHandle.Builder(name)
                    .snaplen(SNAPLEN)
                    .promiscuousMode(PromiscuousMode.PROMISCUOUS)
                    .timeoutMillis(READ_TIMEOUT_MS)
                    .bufferSize(CAPTURE_BUFFER_BYTES)
                    .immediateMode(true)
                    .direction(PcapDirection.IN)
                    .build();
            capture.setFilter(captureFilter(options), BpfCompileMode.OPTIMIZE);
            sender = new PcapHandle.Builder(name)
                    .snaplen(128)
                    .promiscuousMode(PromiscuousMode.NONPROMISCUOUS)
                    .timeoutMillis(READ_TIMEOUT_MS)
                    .build();
            // The send handle must not fill a capture ring nobody reads: a filter nothing passes.
            sender.setFilter("less 1", BpfCompileMode.OPTIMIZE);
        } catch (PcapNativeException | NotOpenException e) {
            closeQuietly(capture);
            closeQuietly(sender);
            throw new IOException(
                    "cannot open '" + name + "' for raw capture and send (root or CAP_NET_RAW needed): "
                            + e.getMessage(),
                    e);
        }
        RawEthernetWireLink link = new RawEthernetWireLink(options, capture, sender, testerMac);
        link.captureThread.start();
        if (link.dutMac == null) {
            try {
                link.dutMac = link.resolveDutMac();
            } catch (IOException e) {
                link.close();
                throw e;
            }
        }
        return link;
    }

    /** The BPF filter of the capture handle: MetaRoCE to the tester, plus ARP. */
    static String captureFilter(RawEthernetOptions options) {
        String tester = options.tester().getAddress().getHostAddress();
        return "(udp and dst host " + tester + " and dst port "
                + options.tester().getPort() + ") or arp";
    }

    private static MacAddress interfaceMac(PcapNetworkInterface nif) throws IOException {
        Path sys = Path.of("/sys/class/net", nif.getName(), "address");
        if (Files.isReadable(sys)) {
            return MacAddress.parse(Files.readString(sys).trim());
        }
        for (LinkLayerAddress address : nif.getLinkLayerAddresses()) {
            if (address.length() == 6) {
                return MacAddress.of(address.getAddress());
            }
        }
        throw new IOException("interface '" + nif.getName() + "' has no MAC address; give testerMac");
    }

    private MacAddress resolveDutMac() throws IOException {
        if (!(options.dut().getAddress() instanceof Inet4Address)) {
            throw new IOException("IPv6 neighbour discovery is not implemented: give the DUT's MAC (dutMac)");
        }
        return arp.resolveDutMac(options.resolveTimeout(), options.interfaceName());
    }

    private void captureLoop() {
        try {
            while (running) {
                // Blocks until a frame arrives (libpcap ignores the read timeout here); close() breaks the wait.
                byte[] raw = capture.getNextRawPacket();
                if (raw == null) {
                    continue;
                }
                long nowNs = options.clock().getAsLong();
                Timestamp timestamp = capture.getTimestamp();
                onFrame(raw, nowNs, timestamp != null ? timestamp.toInstant() : Instant.EPOCH);
            }
        } catch (NotOpenException e) {
            // Closed under us: the link is shutting down.
        } catch (Throwable t) {
            captureFailure = t;
        }
    }

    private void onFrame(byte[] raw, long nowNs, Instant timestamp) throws IOException {
        if (ArpResponder.isArp(raw)) {
            arp.onFrame(raw);
            return;
        }
        DecodedFrame decoded;
        try {
            decoded = FrameCodec.decode(raw, timestamp);
        } catch (FrameDecodeException e) {
            synchronized (frameErrors) {
                if (frameErrors.size() < MAX_KEPT_FRAME_ERRORS) {
                    frameErrors.add(e);
                }
            }
            return;
        }
        UdpFrame frame = decoded.frame();
        received.add(new CapturedPacket(
                frame.payloadBytes(),
                frame.srcIp(),
                frame.srcPort(),
                frame.dstPort(),
                frame.ecn(),
                true,
                nowNs,
                Optional.of(decoded)));
    }

    @Override
    public Set<Capability> capabilities() {
        final Set<Capability> capabilities = EnumSet.allOf(Capability.class);
        if (!physicalInterface) {
            capabilities.remove(Capability.WIRE_CHECKSUMS);
        }
        return capabilities;
    }

    /**
     * Whether {@code name} is a physical interface: Linux gives those a {@code device} link in sysfs; a veth, bridge,
     * tap or loopback has none, and a sender on the same host may leave its checksums to an offload that never runs.
     */
    static boolean isPhysical(final String name) {
        return Files.exists(Path.of("/sys/class/net", name, "device"));
    }

    @Override
    public void send(byte[] packet, int sourcePort, Ecn ecn) throws IOException {
        sendFrom(options.tester().getAddress(), packet, sourcePort, ecn);
    }

    @Override
    public void sendFrom(InetAddress sourceAddress, byte[] packet, int sourcePort, Ecn ecn) throws IOException {
        UdpWireLink.checkPort(sourcePort);
        sendFrame(
                frameTemplate()
                        .srcIp(sourceAddress)
                        .srcPort(sourcePort)
                        .ecn(ecn)
                        .payload(packet)
                        .build(),
                EncodeOptions.DEFAULT);
    }

    @Override
    public Optional<InetAddress> alternateSourceAddress() {
        return Optional.of(alternateSource);
    }

    /** This link builds every frame itself, so it sends any frame a test builds. */
    @Override
    public Optional<FrameSender> frameSender() {
        return Optional.of(this);
    }

    @Override
    public UdpFrame.Builder frameTemplate() {
        return FrameSender.template(testerMac, dutMac, options.tester(), options.dut());
    }

    @Override
    public void sendFrame(UdpFrame frame, EncodeOptions encodeOptions) throws IOException {
        sendRawFrame(FrameCodec.encode(frame, encodeOptions));
    }

    /** Sends any bytes as one Ethernet frame (no FCS: the interface adds it). */
    public void sendRawFrame(byte[] ethernetFrame) throws IOException {
        if (!running) {
            throw new ClosedChannelException();
        }
        try {
            sender.sendPacket(ethernetFrame);
        } catch (PcapNativeException e) {
            throw new IOException("cannot send a frame on '" + options.interfaceName() + "': " + e.getMessage(), e);
        } catch (NotOpenException e) {
            throw new ClosedChannelException();
        }
    }

    @Override
    public Optional<CapturedPacket> receive(Duration timeout) throws IOException {
        if (captureFailure != null) {
            throw new IOException("capture on '" + options.interfaceName() + "' failed", captureFailure);
        }
        if (!running && received.isEmpty()) {
            throw new ClosedChannelException();
        }
        try {
            return Optional.ofNullable(received.poll(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** Frames that passed the capture filter but are not well-formed Ethernet/IP/UDP (at most 1000 kept). */
    public List<FrameDecodeException> frameErrors() {
        synchronized (frameErrors) {
            return List.copyOf(frameErrors);
        }
    }

    /** ARP replies the link sent for the tester's address. */
    public long arpRepliesSent() {
        return arp.repliesSent();
    }

    public MacAddress testerMac() {
        return testerMac;
    }

    public MacAddress dutMac() {
        return dutMac;
    }

    public String interfaceName() {
        return options.interfaceName();
    }

    @Override
    public InetAddress testerAddress() {
        return options.tester().getAddress();
    }

    @Override
    public int testerPort() {
        return options.tester().getPort();
    }

    @Override
    public InetSocketAddress dutAddress() {
        return options.dut();
    }

    @Override
    public long nowNs() {
        return options.clock().getAsLong();
    }

    /**
     * Stops the capture thread and closes both handles. A blocked read is woken with {@code pcap_breakloop}, which
     * libpcap 1.10 and later honour at once; on older libraries the read may stay blocked until a frame arrives, and
     * then the capture handle is left to the daemon thread rather than hang the caller.
     */
    @Override
    public void close() {
        if (!running) {
            return;
        }
        running = false;
        for (int attempt = 0; attempt < 2 && captureThread.isAlive(); attempt++) {
            try {
                capture.breakLoop();
                captureThread.join(1000);
            } catch (NotOpenException e) {
                break;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (!captureThread.isAlive()) {
            closeQuietly(capture);
        }
        closeQuietly(sender);
    }

    private static void closeQuietly(PcapHandle handle) {
        if (handle != null && handle.isOpen()) {
            handle.close();
        }
    }

    @Override
    public String toString() {
        return "RawEthernetWireLink[" + options.interfaceName() + " " + testerMac + " " + options.tester() + " > "
                + dutMac + " " + options.dut() + "]";
    }
}
