package org.mrconf.cases.congestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mrconf.cases.congestion.WindowRounds.DATA;
import static org.mrconf.cases.congestion.WindowRounds.FRESH_DATA;

import java.time.Duration;
import java.util.List;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Testbed;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.ReceivedPacket;

/**
 * Grows a connection window that starts small (section 10: a tester assumes no more than one packet in flight) until a
 * case can tell one decrease from two, keeping a bound the DUT's window cannot exceed.
 *
 * <p>Each round the tester withholds ACKs while the DUT fills its window, counts the new PSNs in flight, then
 * acknowledges every one of them without a CE mark. A DUT keeps at most floor(W) packets in flight, so the count
 * {@code c} is a lower bound of its window at that moment, and, no CE ever being reported, of every later window. The
 * round's ACKs acknowledge {@code c} packets, each growing the window by at most 1/W, or 1/floor(W) for a device that
 * divides by whole packets (10.1.1, 10.1.2): at most {@code c / L} in all, for any lower bound {@code L} of W. The bound
 * this keeps is therefore sound for every conforming device, and close to its real window (about one packet per round
 * above it) for a device that fills it. A timer that fires ends no packet's flight (section 10: only an ACK or a loss
 * deemed from a SACK gap, 6.3.1, does), so a round counts even then; only a round after ACKs that showed a gap (the
 * link lost a packet, which the DUT may have deemed lost) is not trusted as a lower bound.
 */
final class WindowGrowth {
    /** The most rounds a growth takes before the case reports it could not grow the window far enough. */
    static final int MAX_ROUNDS = 128;

    /** How much the bound may grow while the growth drains what it posted. */
    private static final double DRAIN_ROOM = 3;

    /** Packets a count may show over the bound: one for "below W" when W is not whole, one for "about" (10.1.1). */
    private static final int SLACK = 2;

    private final Testbed testbed;
    private final long[] echoAgeNs;
    private final Acknowledged acknowledged;
    private final int payload;
    private long nextWrId;
    private final java.util.Set<Long> pending = new java.util.HashSet<>();
    private long postedPackets;
    private long sentPackets;
    private double upper;
    private int lower;
    private int rounds;
    /** Where the next round's packets start: every packet before it has been acknowledged. */
    private int cut;
    /** Whether the last round's ACKs showed no gap, so this round's count bounds the window from below. */
    private boolean trusted = true;

    private WindowGrowth(
            final Testbed testbed,
            final double upper,
            final int lower,
            final long[] echoAgeNs,
            final long firstWrId,
            final Acknowledged acknowledged) {
        this.testbed = testbed;
        this.acknowledged = acknowledged;
        this.upper = upper;
        this.lower = Math.max(1, lower);
        this.echoAgeNs = echoAgeNs.clone();
        this.nextWrId = firstWrId;
        this.payload = testbed.connection().maxPayload(org.mrconf.wire.Opcode.WRITE);
        this.cut = testbed.peer().mark();
    }

    /**
     * What a growth left: a bound the connection window cannot exceed, a count of packets it has had in flight at
     * once (a lower bound of it), and the rounds it took.
     */
    record Grown(double upper, int lower, int rounds) {}

    /** What a case does after each round's ACKs went out, before the next round is counted. */
    interface Acknowledged {
        void after() throws Exception;
    }

    /**
     * Grows the testbed connection's window from a known bound until {@code enough} says the bounds suffice, or
     * {@link #MAX_ROUNDS} rounds have passed; every growth WRITE (work requests {@code firstWrId} on) has completed
     * when it returns, so later work on the stream is not queued behind it.
     *
     * @param upper a bound the connection window cannot exceed now
     * @param lower packets the connection window allows now at least (its declared first value)
     * @param echoAgeNs per path, how much older than its own the timestamp each ACK echoes (the paths' RTTs)
     * @param enough whether a growth with these bounds is enough for the case
     * @throws AssertionError when the DUT has more new PSNs in flight than the bound allows (10.1.2)
     */
    static Grown grow(
            final Testbed testbed,
            final double upper,
            final int lower,
            final long[] echoAgeNs,
            final long firstWrId,
            final java.util.function.Predicate<Grown> enough)
            throws Exception {
        return grow(testbed, upper, lower, echoAgeNs, firstWrId, enough, () -> {});
    }

    /**
     * As {@link #grow(Testbed, double, int, long[], long, java.util.function.Predicate)}, running {@code acknowledged}
     * after each round's ACKs (packets the DUT sends meanwhile still count in the next round).
     */
    static Grown grow(
            final Testbed testbed,
            final double upper,
            final int lower,
            final long[] echoAgeNs,
            final long firstWrId,
            final java.util.function.Predicate<Grown> enough,
            final Acknowledged acknowledged)
            throws Exception {
        final WindowGrowth growth = new WindowGrowth(testbed, upper, lower, echoAgeNs, firstWrId, acknowledged);
        // The rounds that drain what was posted grow the bound further, by about one packet each: stop with room for
        // them.
        while (growth.rounds < MAX_ROUNDS
                && !enough.test(new Grown(growth.upper + DRAIN_ROOM, growth.lower, growth.rounds))) {
            growth.round(true);
        }
        // Drain: what was posted and not yet sent goes out in further rounds, which are counted the same way.
        while (!growth.pending.isEmpty() && growth.rounds < MAX_ROUNDS + 8) {
            growth.round(false);
            growth.pollCompletions();
        }
        if (!growth.pending.isEmpty()) {
            throw Inconclusive.because(String.format(
                    "the %d WRITEs that grew the connection window did not all complete within %d rounds, each"
                            + " acknowledged in full",
                    growth.pending.size(), growth.rounds));
        }
        return growth.now();
    }

    private Grown now() {
        return new Grown(upper, lower, rounds);
    }

    /** One round: keep data queued (if {@code feed}), count what the DUT puts in flight, acknowledge it all. */
    private void round(final boolean feed) throws Exception {
        final int bound = (int) Math.floor(upper) + SLACK;
        if (feed && postedPackets - sentPackets < bound + 1L) {
            postWrite(bound + 1L);
        }
        // From the last cut: a packet the DUT sent while the previous ACKs went out belongs to this round.
        final int mark = cut;
        final int count = WindowRounds.countInFlight(
                () -> WindowRounds.newPsnsAtLeast(testbed.peer().recorder().matching(mark, FRESH_DATA)),
                Math.min(lower, (int) Math.max(0, postedPackets - sentPackets)),
                bound,
                ConnectionWindowCase.SILENT);
        assertThat(count)
                .as(
                        "10.1.2: new PSNs in flight while the tester withheld ACKs, in round %d of growing the"
                                + " connection window without CE: at most the window's bound %.1f (the declared"
                                + " first window, grown by at most 1/W for each packet acknowledged and never past a declared maximum, and %d of slack)",
                        rounds + 1, upper, SLACK)
                .isLessThanOrEqualTo(bound);
        cut = testbed.peer().mark();
        final List<ReceivedPacket> covered =
                testbed.peer().recorder().since(mark).subList(0, cut - mark);
        final List<ReceivedPacket> freshPackets =
                covered.stream().filter(FRESH_DATA).toList();
        final int fresh = WindowRounds.newPsnsAtLeast(freshPackets);
        // Nothing was acknowledged during the round, and a timeout does not end a packet's flight (section 10), so the
        // round's new PSNs were all in flight at the cut, and the window was at least that many, unless the previous
        // round's ACKs showed the DUT a gap (a packet the link lost), which it may have deemed lost (6.3.1).
        if (trusted) {
            lower = Math.max(lower, fresh);
        }
        trusted = fresh == WindowRounds.distinctPsns(freshPackets);
        // Each of the fresh packets grows the window by at most 1/L (L a lower bound of W at its ACK), and never past
        // a declared maximum (10.1.2).
        upper = testbed.profile().parameters().congestion().capped(upper + (double) fresh / Math.max(1, lower));
        sentPackets += fresh;
        rounds++;
        WindowRounds.acknowledge(
                testbed,
                covered.stream().filter(DATA).toList(),
                new int[echoAgeNs.length],
                false,
                echoAgeNs,
                WindowRounds.everyPath(echoAgeNs.length));
        acknowledged.after();
        pollCompletions();
    }

    private void postWrite(final long packets) throws Exception {
        final long length = Math.min(Testbed.REGION, packets * payload);
        testbed.control()
                .postWrite(
                        new WorkRequest(Testbed.DUT_CONNECTION, 0, nextWrId, testbed.key(), Testbed.BASE, length),
                        0x1000,
                        0x77);
        pending.add(nextWrId++);
        postedPackets += (length + payload - 1) / payload;
    }

    private void pollCompletions() throws Exception {
        for (final var completion : testbed.control().pollCompletions(64, Duration.ofMillis(1))) {
            pending.remove(completion.wrId());
        }
    }
}
