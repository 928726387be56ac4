package org.mrconf.cases;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import org.apiguardian.api.API;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.DutControl;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.Psn;
import org.mrconf.wire.Opcode;

/**
 * Steps the reliability and placement cases share: one segment of a message built by the tester with any PSN,
 * an ACK with any SACK bits, waiting for bytes to be placed, and a completion log that keeps every completion the
 * DUT delivered (polling consumes them, so a case that looks twice needs the log).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class CaseSteps {
    /** How often a case polls the DUT's memory while it waits for a placement. */
    private static final Duration POLL = Duration.ofMillis(2);

    private CaseSteps() {}

    /**
     * Segment {@code index} of a message of {@code data} cut at {@code segment} bytes: connection, path, stream, MSN,
     * lengths, offset and payload filled in; the caller adds the PSN and the opcode's extension.
     */
    public static PacketBuilder segment(
            final PeerConnection connection,
            final Opcode opcode,
            final int path,
            final int stream,
            final long msn,
            final byte[] data,
            final int segment,
            final int index) {
        final int from = index * segment;
        final int to = Math.min(data.length, from + segment);
        return connection.packet(opcode, path).stream(stream)
                .msn(msn)
                .messageLength(data.length)
                .messageOffset(from)
                .payload(Arrays.copyOfRange(data, from, to))
                .transmitTimestamp(1_000 + index);
    }

    /**
     * Segment {@code index} (of {@code segment} bytes each) of the READ_RESPONSE message that answers {@code request}
     * with {@code data}, on {@code path}: the request's stream, MSN and sink handle (clause 7.4.1). The caller adds an
     * ACK request where it wants one.
     */
    public static PacketBuilder readResponseTo(
            final PeerConnection connection,
            final org.mrconf.wire.DataPacket request,
            final byte[] data,
            final int segment,
            final int index,
            final int path) {
        return segment(
                        connection,
                        Opcode.READ_RESPONSE,
                        path,
                        request.streamId(),
                        request.messageSequenceNumber(),
                        data,
                        segment,
                        index)
                .sinkHandle(request.sinkHandle());
    }

    /**
     * How many packets the DUT may send on a one-path connection before any ACK: the smaller of its declared first path
     * and connection windows (section 10, clause 12.1.6), or 1 where it declares neither, since nothing else fixes a
     * first window and a tester must not assume more.
     */
    public static int declaredFirstWindow(final Testbed testbed) {
        return declaredFirstWindow(testbed.profile());
    }

    /** As {@link #declaredFirstWindow(Testbed)}, from the device's profile. */
    public static int declaredFirstWindow(final DeviceDeclaration profile) {
        final DeviceDeclaration.Congestion congestion = profile.parameters().congestion();
        final int path = congestion.initialPathWindow();
        final int connection = congestion.initialConnectionWindow();
        final int declared = path > 0 && connection > 0 ? Math.min(path, connection) : Math.max(path, connection);
        return Math.max(1, declared);
    }

    /** How many segments of {@code segment} bytes a message of {@code length} bytes has (one when empty). */
    public static int segments(final int length, final int segment) {
        return Math.max(1, (length + segment - 1) / segment);
    }

    /** An ACK of {@code path} to the DUT with this cumulative PSN and SACK bits for {@code received} PSNs. */
    public static PacketBuilder ack(
            final int path, final long cumulativePsn, final long echoedTimestamp, final long... received) {
        final PacketBuilder ack = PacketBuilder.ack()
                .connection(Testbed.DUT_CONNECTION)
                .path(path)
                .cumulativePsn(cumulativePsn)
                .echoedTimestamp(echoedTimestamp);
        for (final long psn : received) {
            if (Psn.precedes(cumulativePsn, psn)) {
                ack.sackPsns(psn);
            }
        }
        return ack;
    }

    /**
     * Polls the DUT's memory until {@code expected} is at {@code address}, for up to {@link Testbed#WAIT}.
     *
     * @throws AssertionError naming {@code what} and showing the first differing byte
     */
    public static void awaitBytes(
            final Testbed testbed, final long key, final long address, final byte[] expected, final String what)
            throws DutControlException, InterruptedException {
        final long deadline = System.nanoTime() + Testbed.WAIT.toNanos();
        byte[] actual;
        do {
            actual = testbed.control().readRegion(key, address, expected.length);
            if (Arrays.equals(actual, expected)) {
                return;
            }
            Thread.sleep(POLL.toMillis());
        } while (System.nanoTime() - deadline < 0);
        throw new AssertionError(what + ": the " + expected.length + " bytes at 0x" + Long.toHexString(address)
                + " were not placed within " + Testbed.WAIT.toMillis() + " ms; " + firstDifference(expected, actual));
    }

    /** Asserts that the DUT's memory holds {@code expected} at {@code address} now. */
    public static void assertBytes(
            final Testbed testbed, final long key, final long address, final byte[] expected, final String what)
            throws DutControlException {
        final byte[] actual = testbed.control().readRegion(key, address, expected.length);
        if (!Arrays.equals(actual, expected)) {
            throw new AssertionError(what + ": " + firstDifference(expected, actual));
        }
    }

    private static String firstDifference(final byte[] expected, final byte[] actual) {
        for (int i = 0; i < expected.length; i++) {
            if (expected[i] != actual[i]) {
                return "first difference at byte " + i + ": expected " + expected[i] + ", was " + actual[i];
            }
        }
        return "equal";
    }

    /** {@code length} zero bytes. */
    public static byte[] zeros(final int length) {
        return new byte[length];
    }

    /** Writes seeded bytes into the DUT's region at {@code address} and returns them, for the DUT to send. */
    public static byte[] stage(final Testbed testbed, final long address, final int length, final long seed)
            throws DutControlException {
        final byte[] data = Testbed.randomBytes(length, seed);
        testbed.control().writeRegion(testbed.key(), address, data);
        return data;
    }

    /** A work request on the testbed's connection and region. */
    public static WorkRequest request(
            final Testbed testbed, final int stream, final long wrId, final long address, final long length) {
        return new WorkRequest(Testbed.DUT_CONNECTION, stream, wrId, testbed.key(), address, length);
    }

    /**
     * Records a data packet the DUT sent as received and sends the ACK of its path, reporting what the tester has
     * recorded there (so everything before it too, once recorded).
     */
    public static void acknowledge(final Testbed testbed, final org.mrconf.peer.ReceivedPacket packet)
            throws Exception {
        final org.mrconf.wire.DataPacket data = packet.data().orElseThrow();
        testbed.connection().onReceived(packet);
        testbed.peer().send(testbed.connection().ackFor(data.header().pathId(), data.transmitTimestamp()));
    }

    /**
     * Makes room for a second packet in flight where the device's declared first windows hold one (section 10: a tester
     * assumes no more than one packet in flight at first). Windows that grow (the congestion profile, 10.1.1 and 10.1.2)
     * grow from one packet to two when one packet is acknowledged, so the DUT posts a one-byte WRITE {@code wrId} from
     * the testbed's region at {@code source} to {@code remoteAddress} under {@code remoteKey}, which the tester
     * acknowledges before this returns. Windows that stay as declared (10.1.6) cannot be grown: nothing is done, and a
     * case then sees whether the DUT puts a second packet out ({@link #awaitWhileOthersHeld}).
     *
     * @return how many messages it posted on stream 0 (0 or 1): the MSNs a case's own messages start at
     */
    public static int growPastOnePacket(
            final Testbed testbed, final long wrId, final long source, final long remoteAddress, final long remoteKey)
            throws Exception {
        if (declaredFirstWindow(testbed) >= 2 || !testbed.profile().claims(org.mrconf.catalogue.Profile.CONGESTION)) {
            return 0;
        }
        final int mark = testbed.peer().mark();
        testbed.control().postWrite(request(testbed, 0, wrId, source, 1), remoteAddress, remoteKey);
        acknowledge(
                testbed,
                testbed.peer()
                        .await(
                                mark,
                                org.mrconf.peer.PacketMatcher.expect()
                                        .data()
                                        .connection(Testbed.TESTER_CONNECTION)
                                        .firstTransmission(),
                                Testbed.WAIT));
        new CompletionLog(testbed.control())
                .awaitWrId(wrId, "set-up: the one-byte WRITE whose ACK grows a first window of one packet to two");
        return 1;
    }

    /**
     * Waits for a packet the DUT may send only with a second packet in flight, while the tester holds an earlier one
     * unacknowledged: at most a quarter of the DUT's connection timeout (6.7.3), so that the DUT's own timeout cannot
     * fail the connection while ACKs are held, and no longer than {@link Testbed#WAIT}. Empty when the DUT kept to one
     * packet in flight, as it may (section 10).
     */
    public static java.util.Optional<org.mrconf.peer.ReceivedPacket> awaitWhileOthersHeld(
            final Testbed testbed, final int mark, final org.mrconf.peer.PacketMatcher matcher) {
        return awaitWhileOthersHeld(testbed, mark, matcher, Testbed.WAIT);
    }

    /**
     * As {@link #awaitWhileOthersHeld(Testbed, int, org.mrconf.peer.PacketMatcher)}, for at most {@code atMost}: a case
     * whose held packet must not meet its own timer meanwhile waits less.
     */
    public static java.util.Optional<org.mrconf.peer.ReceivedPacket> awaitWhileOthersHeld(
            final Testbed testbed, final int mark, final org.mrconf.peer.PacketMatcher matcher, final Duration atMost) {
        final Duration quarter =
                testbed.profile().parameters().timers().connectionTimeout().dividedBy(4);
        final Duration limit = quarter.compareTo(atMost) < 0 ? quarter : atMost;
        final long fromNs = testbed.stalls().nowNs();
        final java.util.Optional<org.mrconf.peer.ReceivedPacket> seen =
                testbed.peer().recorder().awaitFirst(mark, matcher, limit);
        if (seen.isPresent()) {
            return seen;
        }
        // A host stall inside the wait held the tester (or an embedded DUT) back, not the DUT's choice: wait once
        // more, as long as the stall, so that "it kept one packet in flight" is not read from a stall. At most twice
        // the limit in all, still well inside the DUT's connection timeout.
        final long stallNs =
                testbed.stalls().longestStallNs(fromNs, testbed.stalls().nowNs());
        if (stallNs <= 0) {
            return seen;
        }
        return testbed.peer()
                .recorder()
                .awaitFirst(mark, matcher, Duration.ofNanos(Math.min(stallNs, limit.toNanos())));
    }

    /**
     * Makes the DUT post WRITE {@code wrId} of {@code length} bytes from the testbed's region at {@code source} and
     * acknowledges it at once, but echoing a timestamp {@code age} older than its own, so that the DUT's smoothed RTT,
     * and with it the RTO of the path it used, is far longer than the tester takes to answer: a case that must answer
     * before that timer fires then does not race it. Only the paths the WRITE's packets take are stretched: on a
     * multipath testbed, give it a packet or two per path (and check for an expiry on a path it left out).
     */
    public static void stretchTheTimer(
            final Testbed testbed, final Duration age, final long wrId, final long source, final long length)
            throws Exception {
        testbed.connection().ackEchoAge(age);
        testbed.connection().autoAck(true);
        try {
            testbed.control()
                    .postWrite(
                            new WorkRequest(Testbed.DUT_CONNECTION, 0, wrId, testbed.key(), source, length),
                            0x00D0_0000L,
                            0x61);
            final DutCompletion completion = testbed.awaitCompletion(wrId);
            if (completion.status() != org.mrconf.dut.CompletionStatus.SUCCESS) {
                throw new AssertionError("set-up: a WRITE acknowledged at once completed " + completion.status());
            }
        } finally {
            testbed.connection().autoAck(false);
            testbed.connection().ackEchoAge(Duration.ZERO);
        }
    }

    /**
     * The shortest RTO the DUT can run with after {@link #stretchTheTimer} with {@code age}: that age, or its declared
     * maximum RTO when that is less. A resend that comes sooner after its original (by the DUT's own transmit
     * timestamps) than this, less the timer tolerance, was not the timer's; cases that can afford it keep a wider
     * margin (half of it).
     */
    public static Duration stretchedRtoFloor(final Testbed testbed, final Duration age) {
        final Duration maxRto = testbed.profile().parameters().timers().maxRto();
        return age.compareTo(maxRto) <= 0 ? age : maxRto;
    }

    /**
     * Every completion the DUT delivered during a case, in delivery order. Polling consumes completions, so a case
     * that waits for one and later checks that no other came must keep them here.
     */
    public static final class CompletionLog {
        private final DutControl control;
        private final List<DutCompletion> seen = new ArrayList<>();

        public CompletionLog(final DutControl control) {
            this.control = control;
        }

        /** Waits up to {@link Testbed#WAIT} until {@code count} completions match; returns them in order. */
        public List<DutCompletion> await(final Predicate<DutCompletion> matching, final int count, final String what)
                throws DutControlException {
            final long deadline = System.nanoTime() + Testbed.WAIT.toNanos();
            while (true) {
                final List<DutCompletion> found = seen.stream().filter(matching).toList();
                if (found.size() >= count) {
                    return found.subList(0, count);
                }
                if (System.nanoTime() - deadline >= 0) {
                    throw new AssertionError(what + ": expected " + count + " completion(s), got " + found.size()
                            + " within " + Testbed.WAIT.toMillis() + " ms; all completions: " + seen);
                }
                seen.addAll(control.pollCompletions(64, Duration.ofMillis(50)));
            }
        }

        /** Waits for the completion of work request {@code wrId}. */
        public DutCompletion awaitWrId(final long wrId, final String what) throws DutControlException {
            return await(c -> c.wrId() == wrId, 1, what).get(0);
        }

        /** Collects what arrives during {@code during} and returns everything seen so far. */
        public List<DutCompletion> drain(final Duration during) throws DutControlException {
            final long deadline = System.nanoTime() + during.toNanos();
            do {
                seen.addAll(control.pollCompletions(64, Duration.ofMillis(20)));
            } while (System.nanoTime() - deadline < 0);
            return List.copyOf(seen);
        }

        /** Everything seen so far, without polling. */
        public List<DutCompletion> all() {
            return List.copyOf(seen);
        }
    }
}
