package org.mrconf.verdict;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
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
     */
    public record PacketRecord(long timeNs, String direction, String summary, String hex) {
        public PacketRecord {
            Objects.requireNonNull(direction, "direction");
            Objects.requireNonNull(summary, "summary");
            Objects.requireNonNull(hex, "hex");
        }
    }
}
