package org.mrconf.report;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.HexFormat;
import org.mrconf.pcap.MacAddress;
import org.mrconf.pcap.PcapWriter;
import org.mrconf.pcap.UdpFrame;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Evidence;

/**
 * Writes a case's evidence packets as a pcap slice that Wireshark opens: each MetaRoCE packet is framed in
 * Ethernet/IPv4/UDP with correct checksums. The framing is synthetic (the evidence holds only the MetaRoCE bytes):
 * the tester is 02:00:00:00:00:01 / 192.0.2.1 and the device 02:00:00:00:00:02 / 192.0.2.2 (TEST-NET-1, RFC 5737),
 * both on UDP port {@value UdpFrame#METAROCE_PORT}; each record is stamped at the case start plus the packet's
 * offset.
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

    private static InetAddress address(final int a, final int b, final int c, final int d) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d});
        } catch (UnknownHostException e) {
            throw new AssertionError("four bytes are always an address", e);
        }
    }
}
