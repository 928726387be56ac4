package org.mrconf.runner;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.mrconf.dut.CapturedPacket;
import org.mrconf.dut.WireLink;
import org.mrconf.pcap.Ecn;

/**
 * Passes the tester's packets on and swallows everything the device sends back: no case can then pass. Shared by the
 * runner's tests and {@code CasesCanFailTest}.
 */
public record MuteLink(WireLink link) implements WireLink {
    @Override
    public Set<Capability> capabilities() {
        return link.capabilities();
    }

    @Override
    public void send(final byte[] packet, final int sourcePort, final Ecn ecn) throws IOException {
        link.send(packet, sourcePort, ecn);
    }

    @Override
    public Optional<CapturedPacket> receive(final Duration timeout) throws IOException {
        link.receive(timeout);
        return Optional.empty();
    }

    @Override
    public InetAddress testerAddress() {
        return link.testerAddress();
    }

    @Override
    public int testerPort() {
        return link.testerPort();
    }

    @Override
    public InetSocketAddress dutAddress() {
        return link.dutAddress();
    }

    @Override
    public long nowNs() {
        return link.nowNs();
    }

    @Override
    public void close() {
        // the embedded device owns the real link
    }
}
