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
 * Swallows everything the device sends back, and with {@code cut} also the tester's packets (a wire cut both ways;
 * the control channel still works, so a case that passes over it needed no wire at all). Shared by the runner's tests
 * ({@link #MuteLink(WireLink)}) and {@code CasesCanFailTest} ({@link #cut(WireLink)}).
 */
public record MuteLink(WireLink link, boolean cut) implements WireLink {
    /** Passes the tester's packets on: no case that needs an answer can pass. */
    public MuteLink(final WireLink link) {
        this(link, false);
    }

    /** Drops the tester's packets too. */
    public static MuteLink cut(final WireLink link) {
        return new MuteLink(link, true);
    }

    @Override
    public Set<Capability> capabilities() {
        return link.capabilities();
    }

    @Override
    public void send(final byte[] packet, final int sourcePort, final Ecn ecn) throws IOException {
        if (!cut) {
            link.send(packet, sourcePort, ecn);
        }
    }

    @Override
    public void sendFrom(final InetAddress sourceAddress, final byte[] packet, final int sourcePort, final Ecn ecn)
            throws IOException {
        if (!cut) {
            link.sendFrom(sourceAddress, packet, sourcePort, ecn);
        }
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
