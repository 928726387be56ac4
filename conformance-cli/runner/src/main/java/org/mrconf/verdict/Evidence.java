package org.mrconf.verdict;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.apiguardian.api.API;

/**
 * What a reviewer needs to see why a case got its verdict: the expected and actual values of the check that decided
 * it, and the packets exchanged around it.
 *
 * @param expected what the clause requires, as text; empty when not applicable
 * @param actual   what the device did, as text; empty when not applicable
 * @param packets  the packets sent and received around the decision, in time order
 * @param pcapFile the pcap slice holding those packets, relative to the run folder; empty when none was written
 */
@API(status = MAINTAINED, since = "0.1")
public record Evidence(String expected, String actual, List<PacketRecord> packets, Optional<String> pcapFile) {
    public static final Evidence NONE = new Evidence("", "", List.of(), Optional.empty());

    public Evidence {
        Objects.requireNonNull(expected, "expected");
        Objects.requireNonNull(actual, "actual");
        packets = List.copyOf(packets);
        Objects.requireNonNull(pcapFile, "pcapFile");
    }

    /**
     * One packet of the evidence.
     *
     * @param timeNs    when the tester sent or received it, nanoseconds since the case started
     * @param direction {@code "tester->dut"} or {@code "dut->tester"}
     * @param summary   the decoded packet on one line (opcode, path, PSN, flags, ...)
     * @param hex       the MetaRoCE bytes in hex
     * @param wire      the packet's IP addresses, UDP ports and ECN field as the tester's link sent or received it;
     *                  empty when not recorded (a report read back from its JSON, which does not carry them)
     */
    public record PacketRecord(long timeNs, String direction, String summary, String hex, Optional<Wire> wire) {
        public PacketRecord {
            Objects.requireNonNull(direction, "direction");
            Objects.requireNonNull(summary, "summary");
            Objects.requireNonNull(hex, "hex");
            Objects.requireNonNull(wire, "wire");
        }

        /** A packet without its wire fields. */
        public PacketRecord(long timeNs, String direction, String summary, String hex) {
            this(timeNs, direction, summary, hex, Optional.empty());
        }
    }

    /**
     * Where a packet of the evidence travelled: the addresses and ports of its IP and UDP headers and its ECN field,
     * as the tester's link sent it or received it. Over UDP and raw Ethernet these are the real ones; on the embedded
     * reference's in-memory link the addresses are the labels of its configuration (no host stack is involved) and
     * the ports and ECN field are those the two ends used.
     *
     * @param sourceAddress      the IP source address, as a literal ({@code 127.0.0.1}, {@code ::1})
     * @param sourcePort         the UDP source port
     * @param destinationAddress the IP destination address, as a literal
     * @param destinationPort    the UDP destination port
     * @param ecn                the ECN field (0 Not-ECT, 1 ECT(1), 2 ECT(0), 3 CE); empty where the link could not
     *                           see it on a received packet
     */
    public record Wire(
            String sourceAddress, int sourcePort, String destinationAddress, int destinationPort, OptionalInt ecn) {
        public Wire {
            Objects.requireNonNull(sourceAddress, "sourceAddress");
            Objects.requireNonNull(destinationAddress, "destinationAddress");
            Objects.requireNonNull(ecn, "ecn");
            checkPort(sourcePort);
            checkPort(destinationPort);
            if (ecn.isPresent() && (ecn.getAsInt() < 0 || ecn.getAsInt() > 3)) {
                throw new IllegalArgumentException("ECN is two bits: " + ecn.getAsInt());
            }
        }

        private static void checkPort(final int port) {
            if (port < 0 || port > 0xFFFF) {
                throw new IllegalArgumentException("not a UDP port: " + port);
            }
        }
    }
}
