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
 * A link cut in both directions: the tester's packets never reach the device and the device's never come back. The
 * control channel still works, so a case that passes over it needed no wire at all. Used by
 * {@code CasesCanFailTest}; {@link MuteLink} cuts only the way back.
 */
public record CutLink(WireLink link) implements WireLink {
    @Override
    public Set<Capability> capabilities() {
        return link.capabilities();
    }

    @Override
    public void send(final byte[] packet, final int sourcePort, final Ecn ecn) {
        // dropped on the cut wire
    }

    @Override
    public void sendFrom(final InetAddress sourceAddress, final byte[] packet, final int sourcePort, final Ecn ecn) {
        // dropped on the cut wire
    }

    @Override
    public Optional<InetAddress> alternateSourceAddress() {
        return link.alternateSourceAddress();
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
