package org.mrconf.report;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.HexFormat;
import org.mrconf.pcap.Ecn;
import org.mrconf.pcap.MacAddress;
import org.mrconf.pcap.PcapWriter;
import org.mrconf.pcap.UdpFrame;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Evidence;

/**
 * Writes a case's evidence packets as a pcap slice that Wireshark opens: each MetaRoCE packet is framed in
 * Ethernet/IP/UDP with correct checksums, in both directions, the tester's own packets (its ACKs included) as well as
 * the device's. Each record is stamped at the case start plus the packet's offset.
 *
 * <p>A packet with its {@link Evidence.Wire} (every packet of a run's own evidence) keeps the IP addresses, UDP ports
 * and ECN field its link sent or received it with, IPv4 or IPv6, so entropy (source ports) and ECN marks can be
 * checked in the slice; over UDP these are the real ones. On the embedded reference's in-memory link the addresses
 * are the labels of its configuration and the ports and ECN field those the two ends used. The DSCP is written 0
 * (only the ECN field is recorded); a received packet whose ECN the link could not see is written Not-ECT. The
 * Ethernet addresses are always labels: the tester 02:00:00:00:00:01, the device 02:00:00:00:00:02.
 *
 * <p>A packet without wire fields (a report read back from its JSON, which does not carry them) is framed as before:
 * the tester 192.0.2.1 and the device 192.0.2.2 (TEST-NET-1, RFC 5737), both on UDP port
 * {@value UdpFrame#METAROCE_PORT}, Not-ECT.
 */
final class PcapSlices {
    /** The {@link Evidence.PacketRecord#direction()} of a packet the tester sent. */
    static final String TESTER_TO_DUT = "tester->dut";
    /** The direction of a packet the device sent. */
    static final String DUT_TO_TESTER = "dut->tester";

    static final MacAddress TESTER_MAC = MacAddress.parse("02:00:00:00:00:01");
    static final MacAddress DUT_MAC = MacAddress.parse("02:00:00:00:00:02");
    static final InetAddress TESTER_IP = address(192, 0, 2, 1);
    static final InetAddress DUT_IP = address(192, 0, 2, 2);

    private PcapSlices() {}

    /**
     * Writes {@code result}'s packets to {@code file} atomically.
     *
     * @throws IllegalArgumentException if a packet's hex or direction is malformed (a runner bug; named in the
     *     message)
     */
    static void write(final Path file, final CaseResult result) throws IOException {
        final HexFormat hex = HexFormat.of();
        AtomicFiles.replace(file, temp -> {
            try (PcapWriter writer = PcapWriter.create(temp)) {
                int index = 0;
                for (final Evidence.PacketRecord p : result.evidence().packets()) {
                    final byte[] payload;
                    try {
                        payload = hex.parseHex(p.hex());
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(
                                result.caseId() + ": evidence packet " + index + " has malformed hex", e);
                    }
                    writer.write(frame(result, p, index, payload));
                    index++;
                }
            }
        });
    }

    private static UdpFrame frame(
            final CaseResult result, final Evidence.PacketRecord p, final int index, final byte[] payload) {
        final boolean fromTester;
        if (TESTER_TO_DUT.equals(p.direction())) {
            fromTester = true;
        } else if (DUT_TO_TESTER.equals(p.direction())) {
            fromTester = false;
        } else {
            throw new IllegalArgumentException(result.caseId() + ": evidence packet " + index + " has direction '"
                    + p.direction() + "', want " + TESTER_TO_DUT + " or " + DUT_TO_TESTER);
        }
        final UdpFrame.Builder frame = UdpFrame.builder()
                .srcMac(fromTester ? TESTER_MAC : DUT_MAC)
                .dstMac(fromTester ? DUT_MAC : TESTER_MAC)
                .payload(payload)
                .timestamp(result.startedAt().plusNanos(Math.max(0, p.timeNs())));
        if (p.wire().isPresent()) {
            final Evidence.Wire wire = p.wire().get();
            final InetAddress source = literal(result, index, wire.sourceAddress());
            final InetAddress destination = literal(result, index, wire.destinationAddress());
            if (source.getClass() == destination.getClass()) {
                return frame.srcIp(source)
                        .dstIp(destination)
                        .srcPort(wire.sourcePort())
                        .dstPort(wire.destinationPort())
                        .ecn(Ecn.fromCodepoint(wire.ecn().orElse(0)))
                        .build();
            }
        }
        return UdpFrame.builder()
                .srcMac(fromTester ? TESTER_MAC : DUT_MAC)
                .dstMac(fromTester ? DUT_MAC : TESTER_MAC)
                .srcIp(fromTester ? TESTER_IP : DUT_IP)
                .dstIp(fromTester ? DUT_IP : TESTER_IP)
                .srcPort(UdpFrame.METAROCE_PORT)
                .dstPort(UdpFrame.METAROCE_PORT)
                .payload(payload)
                .timestamp(result.startedAt().plusNanos(Math.max(0, p.timeNs())))
                .build();
    }

    /** An IP literal of the evidence (never a host name to look up). */
    private static InetAddress literal(final CaseResult result, final int index, final String text) {
        final boolean literal = !text.isEmpty()
                && (text.indexOf(':') >= 0 || text.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9')));
        if (!literal) {
            throw new IllegalArgumentException(
                    result.caseId() + ": evidence packet " + index + " has address '" + text + "', want an IP literal");
        }
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(
                    result.caseId() + ": evidence packet " + index + " has address '" + text + "'", e);
        }
    }

    private static InetAddress address(final int a, final int b, final int c, final int d) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d});
        } catch (UnknownHostException e) {
            throw new AssertionError("four bytes are always an address", e);
        }
    }
}
