package org.mrconf.peer;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.mrconf.dut.Datagram;
import org.mrconf.dut.QueueWireLink;
import org.mrconf.pcap.Ecn;

/** An in-memory link with a fake clock, recording what the tester sends, for the peer tests. */
final class Links {
    static final InetSocketAddress TESTER = new InetSocketAddress(InetAddress.getLoopbackAddress(), 4800);
    static final InetSocketAddress DUT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 4796);

    final AtomicLong clock = new AtomicLong(1_000_000);
    final List<Datagram> toDut = new CopyOnWriteArrayList<>();
    final QueueWireLink link = new QueueWireLink(TESTER, DUT, toDut::add, clock::get);

    /** What the tester sent, first payload byte of each: the tests number their packets that way. */
    List<Integer> firstBytes() {
        return toDut.stream().map(d -> d.payload()[0] & 0xFF).toList();
    }

    void fromDut(byte[] packet, int sourcePort) {
        link.deliverFromDut(
                new Datagram(packet, new InetSocketAddress(DUT.getAddress(), sourcePort), TESTER, Ecn.NOT_ECT));
    }
}
