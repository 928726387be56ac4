package org.mrconf.cases;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.apiguardian.api.API;
import org.mrconf.dut.ConnectionSpec;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.DutControl;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.DutCounters;
import org.mrconf.dut.RegionAccess;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.TesterPeer;
import org.mrconf.wire.Opcode;

/**
 * What most cases start from: the DUT reset, one connection to the tester peer, one region the peer may
 * write and read, and the peer recording everything the DUT sends. Close it after the case.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Testbed implements AutoCloseable {
    /** The DUT's connection id: packets to the DUT carry it. */
    public static final long DUT_CONNECTION = 0x0001_0001L;
    /** The tester's connection id: packets from the DUT carry it. */
    public static final long TESTER_CONNECTION = 0x0002_0002L;
    /** The region's first address on the DUT. */
    public static final long BASE = 0x7000_0000L;
    /** The region's length. */
    public static final int REGION = 1 << 20;
    /** How long a case waits for something the spec says must happen; generous, since timing is not judged here. */
    public static final Duration WAIT = Duration.ofSeconds(5);
    /**
     * How long a case watches for something that must not happen, at the least; {@link #quiet()} lengthens it to
     * cover the device's declared ACK delay.
     */
    public static final Duration QUIET = Duration.ofMillis(300);

    private final DeviceDeclaration profile;
    private final DutControl control;
    private final TesterPeer peer;
    private final PeerConnection connection;
    private final long key;
    /** Completions {@link #awaitCompletion} polled for other work requests than the one it waited for. */
    private final java.util.List<DutCompletion> unclaimed = new java.util.ArrayList<>();

    private Testbed(
            final DutControl control,
            final TesterPeer peer,
            final PeerConnection connection,
            final long key,
            final DeviceDeclaration profile) {
        this.profile = profile;
        this.control = control;
        this.peer = peer;
        this.connection = connection;
        this.key = key;
    }

    /** Resets the DUT and sets up a connection of {@code paths} paths and {@code streams} streams. */
    public static Testbed open(final DeviceUnderTest dut, final int paths, final int streams)
            throws DutControlException {
        return open(dut, paths, streams, UnaryOperator.identity());
    }

    /**
     * As {@link #open(DeviceUnderTest, int, int)}, with the initial PSNs of the DUT's send paths and of the tester's,
     * e.g. just below the wrap (clause 6.1.2).
     */
    public static Testbed open(
            final DeviceUnderTest dut,
            final int paths,
            final int streams,
            final long initialSendPsn,
            final long initialReceivePsn)
            throws DutControlException {
        return open(dut, paths, streams, spec -> spec.withInitialPsns(initialSendPsn, initialReceivePsn));
    }

    /**
     * Resets the DUT and sets up a connection of {@code paths} paths and {@code streams} streams, with what
     * {@code adjust} changes in its set-up (e.g. initial PSNs, clause 4.2.1).
     */
    public static Testbed open(
            final DeviceUnderTest dut, final int paths, final int streams, final UnaryOperator<ConnectionSpec> adjust)
            throws DutControlException {
        final DutControl control = dut.control();
        control.reset();
        dut.link().discardWaiting();
        // The declared MTU (clause 12.1.3), not a guess from hello: the vendor states what the test may use.
        final int mtu = dut.profile().parameters().mtu();
        final ConnectionSpec spec = adjust.apply(ConnectionSpec.of(
                DUT_CONNECTION,
                TESTER_CONNECTION,
                dut.link().testerAddress(),
                dut.link().testerPort(),
                paths,
                streams));
        control.createConnection(spec);
        final long key = control.registerRegion(
                BASE,
                REGION,
                EnumSet.of(RegionAccess.LOCAL_WRITE, RegionAccess.REMOTE_WRITE, RegionAccess.REMOTE_READ));
        final TesterPeer peer = TesterPeer.start(dut.link());
        DutSession.peerOpened(peer);
        return new Testbed(control, peer, peer.connection(spec, mtu), key, dut.profile());
    }

    /**
     * The run's stall monitor: how long the tester host stalled in a measuring window, for {@link
     * org.mrconf.peer.StallAllowance}.
     */
    public org.mrconf.peer.StallMonitor stalls() {
        return DutSession.stalls();
    }

    /** What the device declared: claims, limits, timers and their tolerance. */
    public DeviceDeclaration profile() {
        return profile;
    }

    public DutControl control() {
        return control;
    }

    public TesterPeer peer() {
        return peer;
    }

    public PeerConnection connection() {
        return connection;
    }

    /** The region's key. */
    public long key() {
        return key;
    }

    /**
     * A one-packet WRITE of {@code payload} to {@code address} on {@code path}, with that path's next PSN (not
     * consumed: send it with {@code connection().sendNew}) and a new MSN of stream 0 (taken, so that every WRITE
     * built here is a new message, never a stale copy of an earlier one).
     */
    public PacketBuilder write(final int path, final long address, final long remoteKey, final byte[] payload) {
        return connection.packet(Opcode.WRITE, path).stream(0)
                .msn(connection.takeMsn(0))
                .messageLength(payload.length)
                .messageOffset(0)
                .remoteAddress(address)
                .remoteKey(remoteKey)
                .transmitTimestamp(4242)
                .payload(payload)
                .ackRequest();
    }

    /** Polls the DUT until the completion of work request {@code wrId} arrives, or fails after {@link #WAIT}. */
    public DutCompletion awaitCompletion(final long wrId) throws DutControlException {
        return completionWithin(wrId, WAIT)
                .orElseThrow(() -> new AssertionError("no completion for work request " + wrId + " within " + WAIT));
    }

    /** The completion of {@code wrId}, polled for at most {@code patience}; empty if none came. */
    public java.util.Optional<DutCompletion> completionWithin(final long wrId, final Duration patience)
            throws DutControlException {
        final long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            // Completions polled while waiting for another work request are kept for the next call, never dropped.
            for (final java.util.Iterator<DutCompletion> it = unclaimed.iterator(); it.hasNext(); ) {
                final DutCompletion completion = it.next();
                if (completion.wrId() == wrId) {
                    it.remove();
                    return java.util.Optional.of(completion);
                }
            }
            if (System.nanoTime() - deadline >= 0) {
                return java.util.Optional.empty();
            }
            unclaimed.addAll(control.pollCompletions(16, Duration.ofMillis(200)));
        }
    }

    /**
     * How long to watch for a packet that must not come: {@link #QUIET}, or twice the declared ACK deadline (ACK
     * delay plus tolerance) when that is longer, so that a late but legal ACK is never missed.
     */
    public Duration quiet() {
        final Duration twiceAckDeadline =
                profile.parameters().timers().ackDeadline().multipliedBy(2);
        return twiceAckDeadline.compareTo(QUIET) > 0 ? twiceAckDeadline : QUIET;
    }

    /**
     * Waits up to {@link #WAIT} until {@code counter} grew by at least {@code by} since {@code before} and returns
     * the growth, so a case never judges a counter before the device had the time to process the packet. Returns
     * the growth seen at the deadline when it did not reach {@code by} (the case's assertion then fails).
     */
    public long awaitGrowth(final Map<String, Long> before, final String counter, final long by)
            throws DutControlException, InterruptedException {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        long grew = grew(before, counter);
        while (grew < by && System.nanoTime() - deadline < 0) {
            Thread.sleep(10);
            grew = grew(before, counter);
        }
        return grew;
    }

    /** The DUT's counters now. */
    public Map<String, Long> counters() throws DutControlException {
        return control.readCounters();
    }

    /** How much a standard counter grew since {@code before}. */
    public long grew(final Map<String, Long> before, final String counter) throws DutControlException {
        return DutCounters.delta(before, counters(), counter);
    }

    /** Seeded bytes, so a failure can be reproduced. */
    public static byte[] randomBytes(final int length, final long seed) {
        final byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    @Override
    public void close() throws DutControlException {
        peer.close();
        control.destroyConnection(DUT_CONNECTION);
    }
}
