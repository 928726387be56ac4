package org.mrconf.cases.congestion;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.ConnectionSpec;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.pcap.Ecn;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.Opcode;

/**
 * The count behind the fair share (clause 8.2.4): a receiver divides its link among the connections that sent it data
 * during its declared active window, not among every connection it has. Three connections are set up and, with no
 * CE mark anywhere (so the CE scale stays 1), the ACKs' rate hints are judged in three phases:
 *
 * <ol>
 *   <li>one connection sends, the other two are idle: n = 1, so every hint is the whole link rate, without the
 *       utilisation factor;
 *   <li>two connections take turns: n is 1 or 2 (how many fall within the window depends on timing the tester does
 *       not control, so either is right), and every hint is one of those two shares;
 *   <li>after a silence longer than the active window and one hint interval, plus the tolerance, the first connection
 *       sends alone again: the second is no longer counted, and every hint is the whole link rate again.
 * </ol>
 *
 * A share is the spec's L x u / n rounded down; where L x u / n is a whole number, 1 Mbit/s below it conforms too (clause
 * 8.2.4: binary floating point may land there, 0.95 having no exact binary form). The hints are judged
 * against the declared link rate and target utilisation (Table 12-2). A declared active window longer than {@link
 * #LONGEST_SILENCE} leaves the third phase undecided (INCONCLUSIVE).
 *
 * <p>Only data packets make a connection active and count in the CE scale's fraction: a second connection sends only
 * READ_REQUESTs (with the read profile) and PROBEs, CE-marked where the link can mark them, each just before a WRITE of
 * the first, whose hint must stay the whole link rate.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Fair-share computation")
class FairShareCase {
    /** WRITEs each connection sends in a phase, each one awaited before the next. */
    private static final int WRITES = 6;

    /** Unmarked WRITEs the case sends at most while a CE scale from before it restores (the reference needs 15). */
    private static final int SETTLE_WRITES = 60;

    /** Where the settling WRITEs go in the region: after the three phases' WRITEs. */
    private static final int SETTLE_INDEX = 3 * WRITES;

    /** The longest silence the case waits for the active window to pass. */
    private static final Duration LONGEST_SILENCE = Duration.ofSeconds(3);

    /** Beyond the declared window, interval and tolerance: the tester's own scheduling. */
    private static final Duration MARGIN = Duration.ofMillis(50);

    private static final long SECOND_DUT_CONNECTION = 0x0001_0F51L;
    private static final long SECOND_TESTER_CONNECTION = 0x0002_0F51L;
    private static final long IDLE_DUT_CONNECTION = 0x0001_0F52L;
    private static final long IDLE_TESTER_CONNECTION = 0x0002_0F52L;

    @Test
    @DisplayName("the rate hint splits the link among the connections that sent data within the active window only")
    @Verifies("8.2.4")
    void shareCountsOnlyRecentSenders(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            TesterMessages.requireProfile(testbed, Profile.CONGESTION);
            final DeviceDeclaration.Congestion declared =
                    testbed.profile().parameters().congestion();
            final int mtu = testbed.profile().parameters().mtu();
            final ConnectionSpec first = testbed.connection().spec();
            final ConnectionSpec second = first.withIds(SECOND_DUT_CONNECTION, SECOND_TESTER_CONNECTION);
            final ConnectionSpec idle = first.withIds(IDLE_DUT_CONNECTION, IDLE_TESTER_CONNECTION);
            testbed.control().createConnection(second);
            testbed.control().createConnection(idle);
            try {
                final PeerConnection a = testbed.connection();
                final PeerConnection b = testbed.peer().connection(second, mtu);
                final Set<Long> alone = shares(declared, 1);
                settleTheCeScale(testbed, a, declared, alone);

                final List<Long> phase1 = new ArrayList<>();
                for (int i = 0; i < WRITES; i++) {
                    phase1.add(hintFor(testbed, a, i));
                }
                assertThat(phase1)
                        .as(
                                "8.2.4: with one of three connections sending, each hint is the whole link rate %s"
                                        + " Mbit/s (n = 1: idle connections do not count, and a lone sender gets no"
                                        + " utilisation factor)",
                                alone)
                        .allMatch(alone::contains);

                final Set<Long> oneOrTwo = new TreeSet<>(alone);
                oneOrTwo.addAll(shares(declared, 2));
                final List<Long> phase2 = new ArrayList<>();
                for (int i = 0; i < WRITES; i++) {
                    phase2.add(hintFor(testbed, a, WRITES + i));
                    phase2.add(hintFor(testbed, b, i));
                }
                assertThat(phase2)
                        .as(
                                "8.2.4: with two connections taking turns, each hint is the share of n = 1 or n = 2"
                                        + " senders, %s Mbit/s",
                                oneOrTwo)
                        .allMatch(oneOrTwo::contains);

                final Duration silence = declared.activeWindow()
                        .plus(declared.hintInterval())
                        .plus(testbed.profile().parameters().timers().tolerance())
                        .plus(MARGIN);
                if (silence.compareTo(LONGEST_SILENCE) > 0) {
                    throw Inconclusive.because("the declared active window of "
                            + declared.activeWindow().toMillis()
                            + " ms is longer than the case waits for it to pass, so whether the DUT forgets a"
                            + " silent sender cannot be judged");
                }
                // The silence counts only net of the host's longest stall in it (StallAllowance.quietFor): a DUT the
                // host held back may not have recomputed its hint, and that is the host's lateness, not the DUT's.
                final long silentFromNs = testbed.stalls().nowNs();
                Thread.sleep(silence.toMillis() + 1);
                final long latestNs = silentFromNs + 10 * silence.toNanos();
                while (!org.mrconf.peer.StallAllowance.quietFor(
                                testbed.stalls(), silentFromNs, testbed.stalls().nowNs(), silence.toNanos())
                        && testbed.stalls().nowNs() - latestNs < 0) {
                    Thread.sleep(5);
                }
                final List<Long> phase3 = new ArrayList<>();
                for (int i = 0; i < WRITES; i++) {
                    phase3.add(hintFor(testbed, a, 2 * WRITES + i));
                }
                assertThat(phase3)
                        .as(
                                "8.2.4: %d ms after the second connection's last data (the active window of %d us,"
                                        + " one hint interval and the tolerance), the first connection sending alone"
                                        + " gets the whole link rate %s Mbit/s again",
                                silence.toMillis(), declared.activeWindow().toNanos() / 1000, alone)
                        .allMatch(alone::contains);
            } finally {
                testbed.control().destroyConnection(SECOND_DUT_CONNECTION);
                testbed.control().destroyConnection(IDLE_DUT_CONNECTION);
            }
        }
    }

    /**
     * Drives the DUT to a CE scale of 1 before phase 1. The device may have taken in CE-marked data before this case
     * (an earlier case, or a queue on the way), and clause 8.2.4 lets it restore the scaled-down shares gradually, at a
     * pace it chooses. So the first connection sends unmarked WRITEs alone, one hint interval apart, until its hint is
     * the whole link rate or stops changing: a hint still rising is a scale still restoring, which the case waits for; a
     * hint that holds still below the link rate is the device's answer, which phase 1 judges.
     */
    private static void settleTheCeScale(
            final Testbed testbed,
            final PeerConnection connection,
            final DeviceDeclaration.Congestion declared,
            final Set<Long> alone)
            throws Exception {
        long previous = -1;
        for (int i = 0; i < SETTLE_WRITES; i++) {
            final long hint = hintFor(testbed, connection, SETTLE_INDEX + i);
            if (alone.contains(hint) || hint == previous) {
                return;
            }
            previous = hint;
            final long pauseNs = declared.hintInterval().toNanos();
            Thread.sleep(pauseNs / 1_000_000, (int) (pauseNs % 1_000_000));
        }
        throw Inconclusive.because(String.format(
                "the first connection's rate hint was still changing (last %d Mbit/s) after %d unmarked WRITEs one hint"
                        + " interval apart: a CE scale from data marked before the case may still be restoring, which"
                        + " clause 8.2.4 lets a receiver do gradually; more unmarked data would make it conclusive",
                previous, SETTLE_WRITES));
    }

    /** How many times the reading connection's READ_REQUEST, or PROBE, goes just before the writing one's WRITE. */
    private static final int ROUNDS = 24;

    /** The most unmarked WRITEs the case sends for a hint scaled down by earlier CE marks to come back. */
    private static final int WARM_UP = 200;

    @Test
    @DisplayName("READ_REQUESTs and PROBEs make no connection active: beside a connection that only reads and probes,"
            + " the one writing gets the whole link rate")
    @Verifies("8.2.4")
    void readRequestsAndProbesMakeNoConnectionActive(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            TesterMessages.requireProfile(testbed, Profile.CONGESTION);
            final boolean read = testbed.profile().claims(Profile.READ);
            final DeviceDeclaration.Congestion declared =
                    testbed.profile().parameters().congestion();
            final ConnectionSpec first = testbed.connection().spec();
            final ConnectionSpec second = first.withIds(SECOND_DUT_CONNECTION, SECOND_TESTER_CONNECTION);
            testbed.control().createConnection(second);
            try {
                final PeerConnection a = testbed.connection();
                final PeerConnection b = testbed.peer()
                        .connection(second, testbed.profile().parameters().mtu());
                // The READ_RESPONSEs are acknowledged (an ACK makes no connection active either), so that nothing of
                // the reading connection waits or times out.
                b.autoAck(true);
                final Set<Long> alone = shares(declared, 1);
                final boolean ce = testbed.peer().link().can(org.mrconf.dut.WireLink.Capability.SEND_ECN);
                // Set-up: the writing connection alone until its hint is the whole link rate. CE marks on data an
                // earlier case sent may still scale the shares down, and 8.2.4 lets them come back gradually.
                int warm = 0;
                while (!alone.contains(hintFor(testbed, a, warm))) {
                    if (++warm >= WARM_UP) {
                        throw Inconclusive.because("the hint of a connection writing alone did not come back to the"
                                + " whole link rate " + alone + " Mbit/s within " + WARM_UP + " unmarked WRITEs (CE"
                                + " marks that earlier data carried may still scale it down, which 8.2.4 lets recover"
                                + " gradually); a DUT fresh from reset would decide it");
                    }
                }
                final List<Long> hints = new ArrayList<>();
                for (int i = 0; i < ROUNDS; i++) {
                    // The other connection's packet asks for no ACK, so the DUT computes no hint for it; the WRITE that
                    // follows at once asks for one, and its hint counts whoever is active then.
                    final PacketBuilder other = read && i % 2 == 0
                            ? b.packet(Opcode.READ_REQUEST, 0).stream(0)
                                    .msn(b.takeMsn(0))
                                    .messageLength(64)
                                    .remoteAddress(Testbed.BASE + 64L * i)
                                    .remoteKey(testbed.key())
                                    .sinkHandle(0x5000 + i)
                                    .transmitTimestamp(0x2000 + i)
                            : PacketBuilder.probe()
                                    .connection(SECOND_DUT_CONNECTION)
                                    .path(0)
                                    .psn(b.nextPsn(0))
                                    .transmitTimestamp(0x3000 + i);
                    final PacketBuilder write = a.packet(Opcode.WRITE, 0).stream(0)
                            .msn(a.takeMsn(0))
                            .messageLength(64)
                            .messageOffset(0)
                            .remoteAddress(Testbed.BASE + 0x4000 + 64L * i)
                            .remoteKey(testbed.key())
                            .payload(Testbed.randomBytes(64, 500 + i))
                            .transmitTimestamp(0x4000 + i)
                            .ackRequest();
                    final int mark = testbed.peer().mark();
                    final long psn = a.nextPsn(0);
                    // CE-marked where the link can mark: only data packets count in the CE scale's fraction, so a
                    // conforming DUT scales nothing down for these.
                    testbed.peer().sender().send(other.build(), ce ? Ecn.CE : Ecn.ECT_0);
                    if (other.toPacket().opcode() == Opcode.READ_REQUEST) {
                        b.setNextPsn(0, org.mrconf.peer.Psn.add(b.nextPsn(0), 1));
                    }
                    a.sendNew(write, 0);
                    hints.add(testbed.peer()
                            .await(
                                    mark,
                                    PacketMatcher.expect()
                                            .ack()
                                            .connection(a.spec().peerId())
                                            .covers(psn),
                                    Testbed.WAIT)
                            .ack()
                            .orElseThrow()
                            .rateHint());
                }
                assertThat(hints)
                        .as(
                                "8.2.4: beside a connection that sends only %s%s, the one writing is the only active"
                                        + " connection (n = 1) and none of its data is marked: each hint is the whole"
                                        + " link rate %s Mbit/s",
                                read ? "READ_REQUESTs and PROBEs" : "PROBEs", ce ? " (CE-marked)" : "", alone)
                        .allMatch(alone::contains);
            } finally {
                testbed.control().destroyConnection(SECOND_DUT_CONNECTION);
            }
        }
    }

    /** Sends one 64-byte WRITE on {@code connection} and returns the rate hint of the DUT's ACK of it. */
    private static long hintFor(final Testbed testbed, final PeerConnection connection, final int index)
            throws Exception {
        final int mark = testbed.peer().mark();
        final long psn = connection.nextPsn(0);
        connection.write(0, Testbed.BASE + 64L * index, testbed.key(), Testbed.randomBytes(64, index), 0);
        final ReceivedPacket ack = testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .ack()
                                .connection(connection.spec().peerId())
                                .covers(psn),
                        Testbed.WAIT);
        return ack.ack().orElseThrow().rateHint();
    }

    /**
     * The hints clause 8.2.4 gives {@code n} senders without CE marks: the link rate L (n = 1) or L x u / n, rounded
     * down to whole Mbit/s and at least 1; where that share is a whole number, also 1 below it (a binary floating
     * point product of L and u may fall just short of it).
     */
    static Set<Long> shares(final DeviceDeclaration.Congestion declared, final int n) {
        final BigDecimal rate = BigDecimal.valueOf(declared.linkRateMbps());
        final BigDecimal share = n == 1
                ? rate
                : rate.multiply(BigDecimal.valueOf(declared.targetUtilization()))
                        .divide(BigDecimal.valueOf(n), 9, RoundingMode.DOWN);
        final long floor = share.setScale(0, RoundingMode.DOWN).longValueExact();
        final Set<Long> allowed = new TreeSet<>();
        allowed.add(Math.max(1, floor));
        if (share.compareTo(BigDecimal.valueOf(floor)) == 0) {
            allowed.add(Math.max(1, floor - 1));
        }
        return allowed;
    }
}
