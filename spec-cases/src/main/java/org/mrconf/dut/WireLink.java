package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;
import org.mrconf.pcap.Ecn;

/**
 * The wire between the tester and a device under test, the lower point of control and observation: MetaRoCE
 * packets (UDP payloads) go to the DUT's MetaRoCE port from a source port the test chooses (the entropy), and
 * what the DUT sends to the tester's port comes back as {@link CapturedPacket}s stamped by the link's clock.
 *
 * <p>Implementations: {@link UdpWireLink} (kernel UDP sockets), {@link RawEthernetWireLink} (whole Ethernet frames
 * through libpcap, for ECN and malformed IP/UDP fields) and {@link QueueWireLink} (in memory, for the embedded
 * reference). Not every link can do everything; a test checks {@link #capabilities()} and reports "not applicable"
 * rather than demand what the link cannot show. {@code send} and {@code receive} may be called from different
 * threads; {@code receive} from one thread at a time.
 */
@API(status = MAINTAINED, since = "0.1")
public interface WireLink extends AutoCloseable {
    /** What a link can do beyond sending and receiving packets. */
    enum Capability {
        /** Sent packets carry the ECN codepoint asked for. */
        SEND_ECN,
        /** {@link CapturedPacket#ecn()} is the codepoint that arrived, not a placeholder. */
        RECEIVE_ECN,
        /** {@link #sendFrom} can send from {@link #alternateSourceAddress()} (spec clause 11.2.2 tests). */
        OTHER_SOURCE_ADDRESS,
        /**
         * Whole frames with wrong IP or UDP checksums and lengths can be sent, through {@link #frameSender()}
         * ({@link RawEthernetWireLink}).
         */
        MALFORMED_FRAMES,
        /**
         * The checksums of the frames {@link #receive} decodes ({@link CapturedPacket#frame()}) are those the DUT put on
         * the wire: a physical interface, or a link that carries the DUT's own frames. On a virtual interface (veth,
         * loopback) a DUT on the same host may leave its UDP checksums for offload, so they show only the pseudo-header
         * sum ({@link org.mrconf.pcap.ChecksumVerdict#PARTIAL}).
         */
        WIRE_CHECKSUMS
    }

    Set<Capability> capabilities();

    default boolean can(Capability capability) {
        return capabilities().contains(capability);
    }

    /**
     * Sends one MetaRoCE packet to the DUT's MetaRoCE port from the tester's address.
     *
     * @param packet     the UDP payload: MetaRoCE header, payload and trailer, right or deliberately wrong
     * @param sourcePort the UDP source port, 1 to 65535: the entropy
     * @param ecn        the IP ECN field; without {@link Capability#SEND_ECN} only {@link Ecn#NOT_ECT} is honoured
     */
    void send(byte[] packet, int sourcePort, Ecn ecn) throws IOException;

    /** Sends a Not-ECT packet. */
    default void send(byte[] packet, int sourcePort) throws IOException {
        send(packet, sourcePort, Ecn.NOT_ECT);
    }

    /**
     * Sends from another source IP address than the tester's, to test that the DUT drops packets from a source
     * that is not the connection's peer (spec clause 11.2.2).
     *
     * @throws UnsupportedOperationException without {@link Capability#OTHER_SOURCE_ADDRESS}
     */
    default void sendFrom(InetAddress sourceAddress, byte[] packet, int sourcePort, Ecn ecn) throws IOException {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot send from another address");
    }

    /** An address {@link #sendFrom} can use that is not the tester's, if the link has one. */
    default Optional<InetAddress> alternateSourceAddress() {
        return Optional.empty();
    }

    /**
     * The link's sender of whole frames, if it builds the frames itself ({@link Capability#MALFORMED_FRAMES}); empty
     * on a link that hands packets to a socket or a queue, which cannot send a frame it did not build.
     */
    default Optional<FrameSender> frameSender() {
        return Optional.empty();
    }

    /**
     * Waits up to {@code timeout} for the next packet the DUT sent to the tester.
     *
     * @return the packet, or empty on timeout (or if the thread was interrupted; the interrupt flag stays set)
     * @throws java.nio.channels.ClosedChannelException if the link is closed
     */
    Optional<CapturedPacket> receive(Duration timeout) throws IOException;

    /** Most packets {@link #discardWaiting} drops; beyond it the DUT is flooding, and the next test will see that. */
    int STALE_LIMIT = 100_000;

    /**
     * Drops what the link holds now, without waiting: after a {@code reset}, what an earlier test's connection sent
     * and nobody read (data still in flight when that test ended) must not be taken for the next test's traffic,
     * since every test reuses the same connection ids. A link that failed is left for the next receiver to report.
     *
     * @return how many packets were dropped
     */
    default int discardWaiting() {
        int discarded = 0;
        try {
            while (discarded < STALE_LIMIT && receive(Duration.ZERO).isPresent()) {
                discarded++;
            }
        } catch (final IOException e) {
            // the next recorder on this link meets the same failure and reports it as a broken link (ERROR)
        }
        return discarded;
    }

    /** Hears the stalls of a device that shares the tester's host (see {@link #reportDeviceStallsTo}). */
    @FunctionalInterface
    interface DeviceStalls {
        /** Hears nothing. */
        DeviceStalls NONE = (wakeNs, stallNs) -> {};

        /** The device was held back by {@code stallNs}, ending at {@code wakeNs} on this link's clock. */
        void stalled(long wakeNs, long stallNs);
    }

    /**
     * Tells {@code sink} of each time the device was held back by the host it shares with the tester (its timers fired
     * late because the host starved it), so that a timing check excuses that lateness as it does the tester's own
     * stalls. Only a link to a device in the tester's own process can know this; a link to a separate device (a NIC,
     * a process over UDP) reports nothing. {@link DeviceStalls#NONE} stops the reports.
     */
    default void reportDeviceStallsTo(final DeviceStalls sink) {}

    /** The tester's IP address: the connection's peer address at the DUT. */
    InetAddress testerAddress();

    /** The tester's MetaRoCE UDP port, to which the DUT sends. */
    int testerPort();

    /**
     * {@code count} distinct UDP source ports the tester may send from with {@link #send(byte[], int, Ecn)}, none of
     * them the tester's MetaRoCE port. A link that binds sockets takes each from the operating system (never a fixed
     * port, which another socket on the host may hold); a link that binds none (in memory, whole frames) may name any.
     */
    default int[] sourcePorts(final int count) throws java.io.IOException {
        final int[] ports = new int[count];
        int next = 49_152;
        for (int i = 0; i < count; i++, next++) {
            if (next == testerPort()) {
                next++;
            }
            ports[i] = next;
        }
        return ports;
    }

    /** The DUT's MetaRoCE address and UDP port. */
    InetSocketAddress dutAddress();

    /** The link's clock, in nanoseconds: received packets are stamped with it. */
    long nowNs();

    @Override
    void close();
}
