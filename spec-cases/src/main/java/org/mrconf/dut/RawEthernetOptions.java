package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.apiguardian.api.API;
import org.mrconf.pcap.MacAddress;

/**
 * How {@link RawEthernetWireLink} reaches the DUT: the interface, both ends' IP addresses and MetaRoCE ports, and
 * the MAC addresses. A missing tester MAC is read from the interface; a missing DUT MAC is resolved with ARP (IPv4
 * only). Built with {@link #of} and the {@code with*} methods.
 *
 * @param interfaceName   the tester's Ethernet interface, e.g. {@code eth1}
 * @param tester          the tester's IP address and MetaRoCE UDP port; frames to it are captured
 * @param dut             the DUT's IP address and MetaRoCE UDP port
 * @param testerMac       the source MAC of sent frames, by default the interface's own
 * @param dutMac          the destination MAC of sent frames, by default resolved with ARP
 * @param alternateSource the spare source address for {@link WireLink#sendFrom}, by default a neighbour of the
 *                        tester's address
 * @param answerArp       whether the link answers ARP requests for the tester's address, so the DUT can find it
 *                        when no kernel owns that address
 * @param resolveTimeout  how long ARP resolution of the DUT's MAC may take
 * @param clock           nanoseconds, stamping received packets
 */
@API(status = MAINTAINED, since = "0.1")
public record RawEthernetOptions(
        String interfaceName,
        InetSocketAddress tester,
        InetSocketAddress dut,
        Optional<MacAddress> testerMac,
        Optional<MacAddress> dutMac,
        Optional<InetAddress> alternateSource,
        boolean answerArp,
        Duration resolveTimeout,
        LongSupplier clock) {
    public RawEthernetOptions {
        Objects.requireNonNull(interfaceName, "interfaceName");
        Objects.requireNonNull(tester, "tester");
        Objects.requireNonNull(dut, "dut");
        Objects.requireNonNull(testerMac, "testerMac");
        Objects.requireNonNull(dutMac, "dutMac");
        Objects.requireNonNull(alternateSource, "alternateSource");
        Objects.requireNonNull(resolveTimeout, "resolveTimeout");
        Objects.requireNonNull(clock, "clock");
        if (interfaceName.isBlank()) {
            throw new IllegalArgumentException("interface name must not be empty");
        }
        if (tester.isUnresolved() || dut.isUnresolved()) {
            throw new IllegalArgumentException("addresses must be IP literals: " + tester + ", " + dut);
        }
        if (tester.getAddress().getClass() != dut.getAddress().getClass()) {
            throw new IllegalArgumentException("tester and DUT must be the same IP family: " + tester + ", " + dut);
        }
        if (tester.getPort() < 1 || dut.getPort() < 1) {
            throw new IllegalArgumentException("the raw link needs fixed UDP ports: " + tester + ", " + dut);
        }
    }

    /** Options with the interface's own MAC, ARP resolution of the DUT's, ARP answering on, the JVM clock. */
    public static RawEthernetOptions of(String interfaceName, InetSocketAddress tester, InetSocketAddress dut) {
        return new RawEthernetOptions(
                interfaceName,
                tester,
                dut,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                true,
                Duration.ofSeconds(2),
                System::nanoTime);
    }

    public RawEthernetOptions withTesterMac(MacAddress mac) {
        return new RawEthernetOptions(
                interfaceName,
                tester,
                dut,
                Optional.of(mac),
                dutMac,
                alternateSource,
                answerArp,
                resolveTimeout,
                clock);
    }

    public RawEthernetOptions withDutMac(MacAddress mac) {
        return new RawEthernetOptions(
                interfaceName,
                tester,
                dut,
                testerMac,
                Optional.of(mac),
                alternateSource,
                answerArp,
                resolveTimeout,
                clock);
    }

    public RawEthernetOptions withAlternateSource(InetAddress address) {
        return new RawEthernetOptions(
                interfaceName, tester, dut, testerMac, dutMac, Optional.of(address), answerArp, resolveTimeout, clock);
    }

    public RawEthernetOptions withAnswerArp(boolean answer) {
        return new RawEthernetOptions(
                interfaceName, tester, dut, testerMac, dutMac, alternateSource, answer, resolveTimeout, clock);
    }

    public RawEthernetOptions withResolveTimeout(Duration timeout) {
        return new RawEthernetOptions(
                interfaceName, tester, dut, testerMac, dutMac, alternateSource, answerArp, timeout, clock);
    }

    public RawEthernetOptions withClock(LongSupplier newClock) {
        return new RawEthernetOptions(
                interfaceName, tester, dut, testerMac, dutMac, alternateSource, answerArp, resolveTimeout, newClock);
    }
}
