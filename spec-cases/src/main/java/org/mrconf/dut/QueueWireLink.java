package org.mrconf.dut;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.apiguardian.api.API;
import org.mrconf.pcap.Ecn;

/**
 * A wire link in memory, for a DUT in the same process (the CLI's embedded reference). It is built from two JDK
 * functional interfaces: a {@link Consumer} that takes every datagram the tester sends, and a {@link LongSupplier}
 * clock that stamps what the DUT sends back through {@link #deliverFromDut}. Nothing is lost, reordered or
 * re-marked in between, so ECN and source addresses are exact in both directions.
 *
 * <pre>{@code
 * QueueWireLink link = new QueueWireLink(tester, dut, datagram -> dutThread.submit(() -> feed(datagram)),
 *     System::nanoTime);
 * // the embedded DUT's transmitter:
 * link.deliverFromDut(new Datagram(bytes, dut, tester, Ecn.ECT_0));
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class QueueWireLink implements WireLink {
    private final InetSocketAddress tester;
    private final InetSocketAddress dut;
    private final Consumer<Datagram> toDut;
    private final LongSupplier clock;
    private final LinkedBlockingQueue<CapturedPacket> fromDut = new LinkedBlockingQueue<>();
    private volatile boolean closed;

    /**
     * @param tester the tester's address and MetaRoCE port, as the DUT is told
     * @param dut    the DUT's address and MetaRoCE port
     * @param toDut  receives every datagram the tester sends, on the sending thread; it must not block for long
     * @param clock  nanoseconds, stamping received packets
     */
    public QueueWireLink(
            InetSocketAddress tester, InetSocketAddress dut, Consumer<Datagram> toDut, LongSupplier clock) {
        this.tester = Objects.requireNonNull(tester, "tester");
        this.dut = Objects.requireNonNull(dut, "dut");
        this.toDut = Objects.requireNonNull(toDut, "toDut");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Hands a datagram the DUT sent to the tester side; thread-safe. Datagrams for another destination are kept
     * too, so a test can see a DUT sending to the wrong port. Ignored once the link is closed.
     */
    public void deliverFromDut(Datagram datagram) {
        if (closed) {
            return;
        }
        fromDut.add(new CapturedPacket(
                datagram.payload(),
                datagram.source().getAddress(),
                datagram.source().getPort(),
                datagram.destination().getPort(),
                datagram.ecn(),
                true,
                clock.getAsLong(),
                Optional.empty()));
    }

    /** {@link #deliverFromDut} as a consumer, for wiring. */
    public Consumer<Datagram> fromDut() {
        return this::deliverFromDut;
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.SEND_ECN, Capability.RECEIVE_ECN, Capability.OTHER_SOURCE_ADDRESS);
    }

    @Override
    public void send(byte[] packet, int sourcePort, Ecn ecn) throws ClosedChannelException {
        sendFrom(tester.getAddress(), packet, sourcePort, ecn);
    }

    @Override
    public void sendFrom(InetAddress sourceAddress, byte[] packet, int sourcePort, Ecn ecn)
            throws ClosedChannelException {
        if (closed) {
            throw new ClosedChannelException();
        }
        UdpWireLink.checkPort(sourcePort);
        toDut.accept(new Datagram(packet, new InetSocketAddress(sourceAddress, sourcePort), dut, ecn));
    }

    /** A neighbour of the tester's address: in memory any address but the tester's will do. */
    @Override
    public Optional<InetAddress> alternateSourceAddress() {
        return Optional.of(UdpWireLink.neighbourAddress(tester.getAddress(), dut.getAddress()));
    }

    @Override
    public Optional<CapturedPacket> receive(Duration timeout) throws ClosedChannelException {
        if (closed && fromDut.isEmpty()) {
            throw new ClosedChannelException();
        }
        try {
            return Optional.ofNullable(fromDut.poll(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    @Override
    public InetAddress testerAddress() {
        return tester.getAddress();
    }

    @Override
    public int testerPort() {
        return tester.getPort();
    }

    @Override
    public InetSocketAddress dutAddress() {
        return dut;
    }

    @Override
    public long nowNs() {
        return clock.getAsLong();
    }

    @Override
    public void close() {
        closed = true;
    }

    @Override
    public String toString() {
        return "QueueWireLink[tester=" + tester + ", dut=" + dut + "]";
    }
}
