package org.mrconf.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.mrconf.dut.Datagram;
import org.mrconf.dut.QueueWireLink;
import org.mrconf.pcap.Ecn;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.TesterPeer;
import org.mrconf.verdict.Evidence;

/**
 * Issue 33: the evidence holds the tester's own packets (those sent around the impairment too: its ACKs, a case's
 * packets from a foreign address) and the device's, each with the addresses, ports and ECN field it travelled with.
 */
class EvidenceCollectorTest {
    @Test
    void shouldKeepBothDirectionsWithTheirWireFields() throws Exception {
        final InetSocketAddress tester = new InetSocketAddress(InetAddress.getByName("10.0.0.1"), 40000);
        final InetSocketAddress dut = new InetSocketAddress(InetAddress.getByName("10.0.0.2"), 4791);
        final InetAddress foreign = InetAddress.getByName("10.0.0.9");
        try (QueueWireLink link = new QueueWireLink(tester, dut, datagram -> {}, System::nanoTime);
                TesterPeer peer = TesterPeer.start(link)) {
            final long start = link.nowNs();
            peer.sender().sendUnimpaired(new byte[] {1, 2}, 40001, Ecn.ECT_0);
            peer.sender().sendUnimpaired(foreign, new byte[] {3, 4}, 40002, Ecn.NOT_ECT);
            final int mark = peer.mark();
            link.deliverFromDut(
                    new Datagram(new byte[] {5, 6}, new InetSocketAddress(dut.getAddress(), 51000), tester, Ecn.CE));
            peer.recorder().awaitCount(mark, PacketMatcher.expect(), 1, Duration.ofSeconds(2));

            final Evidence evidence = EvidenceCollector.collect("X.y", Optional.empty(), Optional.of(peer), start);

            assertThat(evidence.packets()).hasSize(3);
            assertThat(evidence.packets()).allSatisfy(p -> assertThat(p.wire()).isPresent());
            final List<Evidence.Wire> wires =
                    evidence.packets().stream().map(p -> p.wire().orElseThrow()).toList();
            assertThat(wires)
                    .contains(
                            new Evidence.Wire("10.0.0.1", 40001, "10.0.0.2", 4791, OptionalInt.of(2)),
                            new Evidence.Wire("10.0.0.9", 40002, "10.0.0.2", 4791, OptionalInt.of(0)),
                            new Evidence.Wire("10.0.0.2", 51000, "10.0.0.1", 40000, OptionalInt.of(3)));
            assertThat(evidence.pcapFile()).contains("evidence/X.y.pcap");
        }
    }
}
