package org.mrconf.authoring;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.mrconf.peer.PacketBuilder;

/**
 * The built-in scenarios in which the DUT is the sender: the tester asks it, through the control channel, to post a
 * WRITE, SEND or READ, and compares what it sends field by field (data header, WRITE and SEND extensions, reserved
 * fields, PSNs, MSNs and RSNs), or answers its READ out of order. Each expectation is the spec's, not the reference's
 * output; see {@link Scenarios}.
 */
final class SenderScenarios {
    /** The tester's region the DUT writes to or reads from: the tester has no memory, the values are only compared. */
    static final long TESTER_ADDRESS = 0x00AA_0000L;

    static final long TESTER_KEY = 0x42;
    /** Long enough to need several packets at any MTU up to 9000 bytes. */
    private static final int MESSAGE = 10_000;
    /** At least 5 packets at any MTU up to 9000 bytes. */
    private static final int LOSSY_MESSAGE = 36_000;
    /** Enough packets acknowledged at once for a window an early timeout collapsed to grow past 10 again. */
    private static final int STRETCHING_MESSAGE = 256 * 1024;

    private static final int SOURCE_LENGTH = 64 * 1024;
    /** The sink handle and MSN the READ_RESPONSEs are recorded with; replay uses the DUT's actual READ_REQUEST's. */
    private static final long RECORDED_SINK_HANDLE = 0x5EED_0001L;

    private static final int READ_SEGMENT = 1024;

    private SenderScenarios() {}

    static List<Scenario> all() {
        final List<Scenario> all = new ArrayList<>();
        all.add(dataHeaderFields());
        all.add(writeExtension());
        all.add(reservedSentAsZero());
        all.add(sendRsn());
        all.add(msnPerStream());
        all.add(peerMessageLimit());
        all.add(psnsFromInitialSendPsn());
        all.add(readAnsweredOutOfOrder());
        all.add(readResponseFields());
        all.add(segmentsFilledToTheMtu());
        all.add(completesOnlyWhenAcknowledged());
        all.add(nackedWriteFails());
        all.add(unknownConnectionFailsTheConnection());
        all.add(invalidatedSourceFails());
        all.add(invalidRequestFailsTheWrite());
        all.add(messageTooLongFailsTheSend());
        all.add(errorCompletionInMsnOrder());
        all.add(lateNackOfAFinishedWrite());
        all.add(nackNamingAnotherMessage());
        all.add(completionsInMsnOrder());
        all.add(noHeadOfLineBlockingAcrossStreams());
        all.add(sendWindowOf256());
        all.add(retransmissionKeepsItsFields());
        all.add(resendsEveryHoleOfOneAck());
        all.add(waitsForTheRetryAfter());
        all.add(waitsForTheWindow());
        return all;
    }

    private static Scenario source(final Scenario scenario, final byte[] bytes) {
        return scenario.region("source", SOURCE_LENGTH, bytes, "LOCAL_WRITE");
    }

    private static Scenario postWrite(final Scenario scenario, final int stream, final long wrId, final int length) {
        return scenario.post("WRITE", stream, wrId, "source", 0, length, TESTER_ADDRESS, TESTER_KEY);
    }

    private static Scenario dataHeaderFields() {
        final byte[] data = Scenarios.pattern(MESSAGE, 40);
        final Scenario scenario = source(
                new Scenario(
                        "5.2.1/dut-write-data-header",
                        "valid",
                        "Ensure that every packet of a 10000-byte WRITE the DUT sends carries the data header of"
                                + " Table 5-4: its stream, MSN 0, the message length 10000 and message offsets and"
                                + " payload lengths that together carry exactly the message's bytes",
                        "5.2.1"),
                data);
        postWrite(scenario, 0, 900, MESSAGE);
        scenario.await("WRITE", 0)
                .put("msn", 0)
                .put("messageLength", MESSAGE)
                .put("payloadSha256", Scenarios.sha256(data));
        return scenario.expectResponse("WRITE", 2);
    }

    private static Scenario writeExtension() {
        final byte[] data = Scenarios.pattern(MESSAGE, 41);
        final Scenario scenario = source(
                new Scenario(
                        "5.2.3/dut-write-remote-address-and-key",
                        "valid",
                        "Ensure that every packet of a 10000-byte WRITE the DUT sends carries the remote address of"
                                + " the message's first byte and the remote key the work request named, so that its"
                                + " bytes land at remote address + message offset",
                        "5.2.3"),
                data);
        postWrite(scenario, 0, 901, MESSAGE);
        scenario.await("WRITE", 0)
                .put("remoteAddress", String.format("0x%08x", TESTER_ADDRESS))
                .put("remoteKey", String.format("0x%08x", TESTER_KEY))
                .put("messageLength", MESSAGE)
                .put("payloadSha256", Scenarios.sha256(data));
        return scenario.expectResponse("WRITE", 2);
    }

    private static Scenario segmentsFilledToTheMtu() {
        final byte[] data = Scenarios.pattern(MESSAGE, 49);
        final Scenario scenario = source(
                new Scenario(
                        "4.1.9/dut-write-segments-fill-the-mtu",
                        "valid",
                        "Ensure that no datagram of a 10000-byte WRITE the DUT sends exceeds the connection's MTU and"
                                + " that every packet but the last carries the largest payload the MTU allows",
                        "4.1.9"),
                data);
        postWrite(scenario, 0, 940, MESSAGE);
        scenario.await("WRITE", 0).put("fullSegments", true).put("payloadSha256", Scenarios.sha256(data));
        return scenario.expectResponse("WRITE", 2);
    }

    private static Scenario completesOnlyWhenAcknowledged() {
        final Scenario scenario = source(
                new Scenario(
                        "7.5.4/dut-write-completes-only-when-acknowledged",
                        "valid",
                        "Ensure that the DUT does not complete a one-packet WRITE it sent while the tester holds its"
                                + " ACK back, and completes it with SUCCESS once it is acknowledged",
                        "7.5.4"),
                Scenarios.pattern(128, 50));
        scenario.holdAcks(true);
        postWrite(scenario, 0, 950, 128);
        scenario.await("WRITE", 0);
        scenario.checkNotCompleted(950);
        scenario.holdAcks(false);
        return scenario.expectCompletion(950, "SUCCESS", "WRITE");
    }

    /** Clause 6.1.3: 4 MiB is more than 256 packets at any MTU up to 9000 bytes. */
    private static Scenario sendWindowOf256() {
        final int length = 4 << 20;
        final Scenario scenario = new Scenario(
                        "6.1.3/dut-send-window-of-256",
                        "valid",
                        "Ensure that the DUT, posting a 4 MiB WRITE whose first packet the tester treats as lost while"
                                + " it acknowledges every later one at once (a SACK gap at the cumulative PSN), has at"
                                + " most 256 PSNs outstanding on the path from that cumulative PSN, and completes the"
                                + " WRITE once the gap is filled",
                        "6.1.3")
                .region("source", length, 0x3C, "LOCAL_WRITE");
        scenario.loseFirst();
        postWrite(scenario, 0, 980, length);
        scenario.checkSendWindow(256);
        scenario.holdAcks(false);
        return scenario.expectCompletion(980, "SUCCESS", "WRITE");
    }

    private static Scenario retransmissionKeepsItsFields() {
        final Scenario scenario = source(
                new Scenario(
                        "6.4.2/dut-retransmission-keeps-path-psn-and-fields",
                        "inopportune",
                        "Ensure that when the tester treats the first packet of each of two paths as lost (a SACK gap"
                                + " at the cumulative PSN) during a 10000-byte WRITE, every retransmission the DUT sends"
                                + " carries the original's path id, PSN, opcode, stream, MSN, lengths, offset,"
                                + " extension fields and payload, the RETRANSMISSION flag and a fresh transmit"
                                + " timestamp",
                        "6.4.2"),
                Scenarios.pattern(MESSAGE, 53));
        // Two paths, so that a retransmission on the other path shows (on one path there is no other).
        scenario.setup.put("paths", 2);
        scenario.loseFirst();
        postWrite(scenario, 0, 990, MESSAGE);
        scenario.await("WRITE", 0);
        scenario.holdAcks(false);
        scenario.expect.put("retransmissionsFaithful", true);
        return scenario;
    }

    /**
     * Clauses 6.3.1, 6.4.1 and 4.1.8: one ACK shows two holes. A 256 KiB WRITE, acknowledged at once with echoes 400 ms
     * old, first stretches the DUT's timer (and lets a window that an early expiry of its initial RTO collapsed grow
     * again); then a 36000-byte WRITE (at least 5 packets at any MTU up to 9000 bytes) goes out with ACKs held back and
     * its first two PSNs (offsets 0 and 1 from the path's next new PSN) lost, followed by at least three PSNs received, so that any declared reorder
     * tolerance (clause 6.3.3, at most 3) is met. One ACK describes all; the tester holds every later ACK back, so a
     * hole the DUT does not resend at once waits for its timer.
     */
    private static Scenario resendsEveryHoleOfOneAck() {
        final byte[] data = Scenarios.pattern(LOSSY_MESSAGE, 54);
        final Scenario scenario = source(
                new Scenario(
                        "6.3.1/dut-resends-every-hole-of-one-ack",
                        "inopportune",
                        "Ensure that the DUT, its timer first stretched by ACKs echoing timestamps 400 ms old, resends"
                                + " every PSN that one ACK of the tester shows missing below PSNs it reports received"
                                + " (the first two PSNs of a 36000-byte WRITE), without waiting for its timer, resends"
                                + " no PSN that ACK reports received, and completes the WRITE with its bytes intact"
                                + " once everything is acknowledged",
                        "6.3.1",
                        "6.4.1",
                        "4.1.8"),
                data);
        scenario.region("stretch", STRETCHING_MESSAGE, 0x5A, "LOCAL_WRITE");
        scenario.stretchTimer(400);
        scenario.post("WRITE", 0, 1100, "stretch", 0, STRETCHING_MESSAGE, TESTER_ADDRESS, TESTER_KEY);
        scenario.await("WRITE", 0);
        scenario.checkCompleted(new long[] {1100});
        scenario.holdAndLose(0, 1);
        postWrite(scenario, 0, 1101, LOSSY_MESSAGE);
        scenario.await("WRITE", 0).put("messageLength", LOSSY_MESSAGE).put("payloadSha256", Scenarios.sha256(data));
        scenario.describeHeld();
        scenario.checkResentOnlyLost();
        scenario.holdAcks(false);
        scenario.checkCompleted(new long[] {1101});
        return scenario.expectCompletion(1100, "SUCCESS", "WRITE").expectCompletion(1101, "SUCCESS", "WRITE");
    }

    /**
     * Clause 9.1.9: a WRITE NACKed RECEIVER_NOT_READY waits for the retry-after. A 64-byte WRITE acknowledged with
     * echoes 400 ms old stretches the DUT's timer; then two one-packet WRITEs go out with ACKs held back and the
     * first one's PSN lost. The tester NACKs it RECEIVER_NOT_READY with retry after 50 ms just after it arrived (no
     * timer of the DUT's can have resent it yet), then sends the ACK that shows it missing below the second one's
     * PSN: a gap the DUT must not act on while the PSN waits. The resend must come on its path, not before 50 ms
     * after the NACK, and both WRITEs complete with SUCCESS.
     */
    private static Scenario waitsForTheRetryAfter() {
        final Scenario scenario = source(
                new Scenario(
                        "9.1.9/dut-waits-for-the-retry-after",
                        "inopportune",
                        "Ensure that the DUT, its timer first stretched by ACKs echoing timestamps 400 ms old, resends a"
                                + " one-packet WRITE that the tester NACKs RECEIVER_NOT_READY with retry after 50 ms on"
                                + " its path and not before 50 ms have passed, although the tester's ACK of the next"
                                + " WRITE shows its PSN missing meanwhile, and that both WRITEs then complete with"
                                + " SUCCESS",
                        "9.1.9"),
                Scenarios.pattern(256, 56));
        twoHeldWritesOnAStretchedTimer(scenario, 1110, 0);
        scenario.await("WRITE", 0).put("as", "waiting");
        scenario.await("WRITE", 0);
        scenario.nackReceiverNotReady("waiting", 50_000);
        scenario.holdAcks(false);
        scenario.checkResentAfterRetry();
        return allThreeComplete(scenario, 1110);
    }

    /**
     * Steps: a 64-byte WRITE {@code wrId} acknowledged with echoes 400 ms old stretches the DUT's timer; then, ACKs held
     * and the PSN at {@code lostOffset} of what follows lost, two one-packet WRITEs {@code wrId + 1} and {@code wrId + 2}.
     */
    private static void twoHeldWritesOnAStretchedTimer(
            final Scenario scenario, final long wrId, final long lostOffset) {
        scenario.stretchTimer(400);
        postWrite(scenario, 0, wrId, 64);
        scenario.await("WRITE", 0);
        scenario.checkCompleted(new long[] {wrId});
        scenario.holdAndLose(lostOffset);
        postWrite(scenario, 0, wrId + 1, 64);
        scenario.post("WRITE", 0, wrId + 2, "source", 64, 64, TESTER_ADDRESS + 64, TESTER_KEY);
    }

    /** Step and expectations: the three WRITEs of {@link #twoHeldWritesOnAStretchedTimer} complete with SUCCESS. */
    private static Scenario allThreeComplete(final Scenario scenario, final long wrId) {
        scenario.checkCompleted(new long[] {wrId + 1, wrId + 2});
        return scenario.expectCompletion(wrId, "SUCCESS", "WRITE")
                .expectCompletion(wrId + 1, "SUCCESS", "WRITE")
                .expectCompletion(wrId + 2, "SUCCESS", "WRITE");
    }

    /**
     * Clause 9.1.11: a WRITE NACKed PSN_OUT_OF_WINDOW waits for the window. With the DUT's timer stretched, two
     * one-packet WRITEs go out with ACKs held back and the second one's PSN lost; the tester NACKs it
     * PSN_OUT_OF_WINDOW just after it arrived and watches 50 ms for a resend while its ACKs stay held (the window
     * cannot move, and no timer of the DUT's can have expired so soon). Then it acknowledges the first WRITE, which
     * moves the window: the DUT must resend the second, and both complete with SUCCESS.
     */
    private static Scenario waitsForTheWindow() {
        final Scenario scenario = source(
                new Scenario(
                        "9.1.11/dut-waits-for-the-window",
                        "inopportune",
                        "Ensure that the DUT, its timer first stretched by ACKs echoing timestamps 400 ms old, does not"
                                + " resend a one-packet WRITE the tester NACKs PSN_OUT_OF_WINDOW while no ACK moves the"
                                + " window, and resends it once the tester's ACK of the WRITE before it does, both"
                                + " WRITEs then completing with SUCCESS",
                        "9.1.11"),
                Scenarios.pattern(256, 57));
        twoHeldWritesOnAStretchedTimer(scenario, 1120, 1);
        scenario.await("WRITE", 0);
        scenario.await("WRITE", 0).put("as", "refused");
        scenario.nack("refused", "PSN_OUT_OF_WINDOW");
        scenario.checkNotResentFor(50);
        scenario.holdAcks(false);
        return allThreeComplete(scenario, 1120);
    }

    private static Scenario nackedWriteFails() {
        final Scenario scenario = source(
                new Scenario(
                        "9.1.7/dut-write-nacked-remote-access-fails",
                        "inopportune",
                        "Ensure that a one-packet WRITE the tester answers with NACK REMOTE_ACCESS, then with an ACK"
                                + " that reports its PSN as received, completes with REMOTE_ACCESS_ERROR, never with"
                                + " SUCCESS",
                        "9.1.7"),
                Scenarios.pattern(128, 51));
        return nackedWithAFinalCode(scenario, "WRITE", 960, 128, "REMOTE_ACCESS", "REMOTE_ACCESS_ERROR");
    }

    /**
     * Clause 9.1.10: the tester answers the DUT's WRITE as a peer that lost the connection would, with a NACK
     * UNKNOWN_CONNECTION echoing the connection id the DUT sent to; the DUT must find its connection by that id and
     * fail it. A DUT that looks the NACK up as one of its own ids finds nothing and completes the WRITE on the ACK.
     */
    private static Scenario unknownConnectionFailsTheConnection() {
        final Scenario scenario = source(
                new Scenario(
                        "9.1.10/dut-fails-the-connection-a-nack-names",
                        "inopportune",
                        "Ensure that a one-packet WRITE the tester answers with a NACK UNKNOWN_CONNECTION that echoes"
                                + " the connection id the DUT sent to, then with an ACK, completes with"
                                + " REMOTE_UNKNOWN_CONNECTION: the NACK names the DUT's connection by its peer's id",
                        "9.1.10"),
                Scenarios.pattern(128, 55));
        return nackedWithAFinalCode(scenario, "WRITE", 961, 128, "UNKNOWN_CONNECTION", "REMOTE_UNKNOWN_CONNECTION");
    }

    /**
     * Clause 11.1.7: the DUT's WRITE has gone out whole, but its source region is invalidated before the tester
     * acknowledges it; the ACK that follows must not complete it with SUCCESS. Should the DUT's timer want the PSN
     * again first, it cannot resend it and fails the connection, which completes the WRITE with the same status.
     */
    private static Scenario invalidatedSourceFails() {
        final Scenario scenario = source(
                new Scenario(
                        "11.1.7/dut-write-source-invalidated-before-its-ack",
                        "inopportune",
                        "Ensure that a one-packet WRITE whose source region is invalidated after it was sent and"
                                + " before the tester acknowledges it completes with LOCAL_PROTECTION_ERROR, though"
                                + " the ACK reports its PSN as received",
                        "11.1.7"),
                Scenarios.pattern(128, 56));
        scenario.holdAcks(true);
        postWrite(scenario, 0, 962, 128);
        scenario.await("WRITE", 0);
        scenario.invalidateRegion("source");
        scenario.holdAcks(false);
        return scenario.expectCompletion(962, "LOCAL_PROTECTION_ERROR", "WRITE");
    }

    /**
     * The DUT posts a one-packet {@code op} (WRITE or SEND) of {@code length} bytes while the tester holds its ACKs;
     * the tester NACKs it with {@code code}, then acknowledges everything: the work request must complete with
     * {@code status}.
     */
    private static Scenario nackedWithAFinalCode(
            final Scenario scenario,
            final String op,
            final long wrId,
            final int length,
            final String code,
            final String status) {
        final String name = op.toLowerCase(java.util.Locale.ROOT);
        scenario.holdAcks(true);
        if ("SEND".equals(op)) {
            scenario.post(op, 0, wrId, "source", 0, length, 0, 0);
        } else {
            postWrite(scenario, 0, wrId, length);
        }
        scenario.await(op, 0).put("as", name);
        scenario.nack(name, code);
        scenario.holdAcks(false);
        return scenario.expectCompletion(wrId, status, op);
    }

    /**
     * Table 9-1's action for INVALID_REQUEST (clause 9.1.2): the work request fails with the code's error; a sender
     * that retransmitted the packet instead would see it acknowledged and complete with SUCCESS.
     */
    private static Scenario invalidRequestFailsTheWrite() {
        final Scenario scenario = source(
                new Scenario(
                        "9.1.2/dut-write-nacked-invalid-request-fails",
                        "inopportune",
                        "Ensure that a one-packet WRITE the tester answers with NACK INVALID_REQUEST, a final code of"
                                + " Table 9-1, completes with REMOTE_INVALID_REQUEST and not with SUCCESS once the"
                                + " tester acknowledges everything it receives",
                        "9.1.2"),
                Scenarios.pattern(128, 53));
        return nackedWithAFinalCode(scenario, "WRITE", 985, 128, "INVALID_REQUEST", "REMOTE_INVALID_REQUEST");
    }

    /** Table 9-1's action for MESSAGE_TOO_LONG (clause 9.1.2), for a SEND the DUT posted. */
    private static Scenario messageTooLongFailsTheSend() {
        final Scenario scenario = source(
                new Scenario(
                        "9.1.2/dut-send-nacked-message-too-long-fails",
                        "inopportune",
                        "Ensure that a one-packet SEND the tester answers with NACK MESSAGE_TOO_LONG, a final code of"
                                + " Table 9-1, completes with REMOTE_MESSAGE_TOO_LONG and not with SUCCESS once the"
                                + " tester acknowledges everything it receives",
                        "9.1.2"),
                Scenarios.pattern(256, 54));
        return nackedWithAFinalCode(scenario, "SEND", 986, 256, "MESSAGE_TOO_LONG", "REMOTE_MESSAGE_TOO_LONG");
    }

    /**
     * Clause 7.5.2 at the sender: three one-packet WRITEs of one stream on one path; the tester treats the first PSN
     * as lost and acknowledges the other two, so they must wait for the first, and once the gap is filled the three
     * complete in MSN order.
     */
    private static Scenario completionsInMsnOrder() {
        final Scenario scenario = source(
                new Scenario(
                        "7.5.2/dut-write-completions-in-msn-order",
                        "inopportune",
                        "Ensure that of three one-packet WRITEs the DUT posts on one stream, the second and third,"
                                + " acknowledged while the tester treats the first as lost, do not complete before the"
                                + " first, and that all three complete with SUCCESS in MSN order once it is"
                                + " acknowledged",
                        "7.5.2"),
                Scenarios.pattern(384, 55));
        scenario.loseFirst();
        for (int i = 0; i < 3; i++) {
            scenario.post("WRITE", 0, 1001 + i, "source", 128 * i, 128, TESTER_ADDRESS + 128L * i, TESTER_KEY);
        }
        for (int i = 0; i < 3; i++) {
            scenario.await("WRITE", 0).put("msn", i);
        }
        scenario.checkNotCompleted(1001, 1002, 1003);
        scenario.holdAcks(false);
        scenario.expect.put("completionsInOrder", true);
        return scenario.expectCompletion(1001, "SUCCESS", "WRITE")
                .expectCompletion(1002, "SUCCESS", "WRITE")
                .expectCompletion(1003, "SUCCESS", "WRITE");
    }

    /**
     * Clause 7.5.3 at the sender: a WRITE on stream 0 whose only packet the tester treats as lost must not hold back
     * the completion of a later WRITE on stream 1 that it acknowledges.
     */
    private static Scenario noHeadOfLineBlockingAcrossStreams() {
        final Scenario scenario = source(
                new Scenario(
                        "7.5.3/dut-write-completes-past-another-streams-gap",
                        "inopportune",
                        "Ensure that a one-packet WRITE the DUT posts on stream 1, acknowledged while the tester treats"
                                + " the packet of an earlier WRITE on stream 0 as lost, completes while that one has"
                                + " not, and that both complete with SUCCESS once the gap is filled",
                        "7.5.3"),
                Scenarios.pattern(256, 56));
        scenario.setup.put("streams", 2);
        scenario.loseFirst();
        scenario.post("WRITE", 0, 1011, "source", 0, 128, TESTER_ADDRESS, TESTER_KEY);
        scenario.post("WRITE", 1, 1012, "source", 128, 128, TESTER_ADDRESS + 128, TESTER_KEY);
        scenario.await("WRITE", 0);
        scenario.await("WRITE", 1);
        scenario.checkCompleted(new long[] {1012}, 1011);
        scenario.holdAcks(false);
        return scenario.expectCompletion(1011, "SUCCESS", "WRITE").expectCompletion(1012, "SUCCESS", "WRITE");
    }

    private static Scenario errorCompletionInMsnOrder() {
        final Scenario scenario = source(
                new Scenario(
                        "7.5.8/dut-error-completion-in-msn-order",
                        "inopportune",
                        "Ensure that a one-packet WRITE the tester NACKs with BOUNDS completes with REMOTE_BOUNDS_ERROR"
                                + " only after the earlier one-packet WRITE of its stream, whose ACK the tester holds"
                                + " back, and that the earlier one completes with SUCCESS",
                        "7.5.8"),
                Scenarios.pattern(256, 52));
        // Two packets in all while ACKs are held: few enough for any first window.
        scenario.holdAcks(true);
        postWrite(scenario, 0, 970, 128);
        scenario.post("WRITE", 0, 971, "source", 128, 128, TESTER_ADDRESS + 128, TESTER_KEY);
        scenario.await("WRITE", 0);
        scenario.await("WRITE", 0).put("as", "second").put("msn", 1);
        scenario.nack("second", "BOUNDS");
        scenario.checkNotCompleted(970, 971);
        scenario.holdAcks(false);
        return scenario.expectCompletion(970, "SUCCESS", "WRITE").expectCompletion(971, "REMOTE_BOUNDS_ERROR", "WRITE");
    }

    private static Scenario lateNackOfAFinishedWrite() {
        final Scenario scenario = source(
                new Scenario(
                        "5.6.5/dut-late-nack-of-a-finished-write",
                        "inopportune",
                        "Ensure that a NACK REMOTE_ACCESS naming a one-packet WRITE the DUT has already completed,"
                                + " sent while the next WRITE of its stream waits for its held-back ACK, is dropped as"
                                + " stale and counted under rx_stale, and fails neither WRITE",
                        "5.6.5"),
                Scenarios.pattern(256, 53));
        postWrite(scenario, 0, 975, 128);
        scenario.await("WRITE", 0).put("as", "first");
        scenario.checkCompleted(new long[] {975});
        scenario.holdAcks(true);
        scenario.post("WRITE", 0, 976, "source", 128, 128, TESTER_ADDRESS + 128, TESTER_KEY);
        scenario.await("WRITE", 0).put("as", "second").put("msn", 1);
        // The first WRITE's PSN is acknowledged and its message finished: the NACK names nothing in progress.
        scenario.nack("first", "REMOTE_ACCESS");
        scenario.checkNotCompleted(976);
        scenario.holdAcks(false);
        return scenario.expectCompletion(975, "SUCCESS", "WRITE")
                .expectCompletion(976, "SUCCESS", "WRITE")
                .expectCounter("rx_stale", 1);
    }

    private static Scenario nackNamingAnotherMessage() {
        final Scenario scenario = source(
                new Scenario(
                        "5.6.5/dut-nack-naming-another-message",
                        "invalid",
                        "Ensure that a NACK REMOTE_ACCESS naming the PSN of the DUT's outstanding one-packet WRITE but"
                                + " the MSN of no message it sent is dropped and counted under rx_invalid_field, and"
                                + " that the WRITE completes with SUCCESS on its ACK",
                        "5.6.5"),
                Scenarios.pattern(128, 54));
        scenario.holdAcks(true);
        postWrite(scenario, 0, 978, 128);
        scenario.await("WRITE", 0).put("as", "only").put("msn", 0);
        scenario.nack("only", "REMOTE_ACCESS", 0, 5);
        scenario.checkNotCompleted(978);
        scenario.holdAcks(false);
        return scenario.expectCompletion(978, "SUCCESS", "WRITE").expectCounter("rx_invalid_field", 1);
    }

    private static Scenario reservedSentAsZero() {
        final byte[] data = Scenarios.pattern(MESSAGE, 42);
        final Scenario scenario = source(
                new Scenario(
                        "5.1.1/dut-sends-reserved-as-zero",
                        "valid",
                        "Ensure that the DUT sends the reserved fields of the common header (bytes 9 to 11 and every"
                                + " flag bit Table 5-3 does not define) as zero in every packet of a WRITE and a READ"
                                + " it is asked to post",
                        "5.1.1"),
                data);
        postWrite(scenario, 0, 902, MESSAGE);
        scenario.await("WRITE", 0).put("reservedZero", true);
        scenario.post("READ", 0, 903, "source", 32 * 1024, 64, TESTER_ADDRESS, TESTER_KEY);
        scenario.await("READ_REQUEST", 0).put("reservedZero", true);
        scenario.profiles.add("read");
        return scenario.expectResponse("WRITE", 2).expectResponse("READ_REQUEST", 1);
    }

    private static Scenario sendRsn() {
        final byte[] data = Scenarios.pattern(256, 43);
        final Scenario scenario = source(
                new Scenario(
                        "5.2.4/dut-send-rsn-after-a-write",
                        "valid",
                        "Ensure that a SEND the DUT posts after a WRITE on the same stream carries RSN 0 (the first"
                                + " SEND of the stream) although its MSN is 1",
                        "5.2.4"),
                data);
        postWrite(scenario, 0, 910, 128);
        scenario.postSend(0, 911, "source", 128, 128);
        scenario.await("WRITE", 0);
        scenario.await("SEND", 0)
                .put("rsn", 0)
                .put("messageLength", 128)
                .put("payloadHex", Scenarios.hex(Arrays.copyOfRange(data, 128, 256)));
        return scenario.expectResponse("SEND", 1);
    }

    private static Scenario msnPerStream() {
        final byte[] data = Scenarios.pattern(512, 44);
        final Scenario scenario = source(
                new Scenario(
                        "7.5.7/dut-msn-per-stream",
                        "valid",
                        "Ensure that the DUT numbers the messages of each stream from MSN 0 in posting order, whatever"
                                + " their opcode: a WRITE on stream 0, a WRITE on stream 1, a SEND on stream 0 and a"
                                + " SEND on stream 1 carry MSNs 0, 0, 1 and 1, and the SENDs RSN 0",
                        "7.5.7"),
                data);
        scenario.setup.put("streams", 2);
        postWrite(scenario, 0, 920, 128);
        postWrite(scenario, 1, 921, 128);
        scenario.postSend(0, 922, "source", 256, 64);
        scenario.postSend(1, 923, "source", 320, 64);
        scenario.await("WRITE", 0).put("msn", 0);
        scenario.await("WRITE", 1).put("msn", 0);
        scenario.await("SEND", 0).put("msn", 1).put("rsn", 0);
        scenario.await("SEND", 1).put("msn", 1).put("rsn", 0);
        return scenario.expectResponse("SEND", 2);
    }

    private static Scenario peerMessageLimit() {
        final byte[] data = Scenarios.pattern(512, 46);
        final Scenario scenario = source(
                new Scenario(
                        "7.5.10/dut-keeps-to-the-peers-message-limit",
                        "valid",
                        "Ensure that the DUT, told at setup that the peer allows 1 outstanding message per stream,"
                                + " sends the first packet of a stream's next message only once the one before is"
                                + " acknowledged: of three one-packet WRITEs posted on a stream, with nothing"
                                + " acknowledged, only the first leaves",
                        "7.5.10"),
                data);
        scenario.setup.put("peerMaxOutstandingMessages", 1);
        scenario.holdAcks(true);
        postWrite(scenario, 0, 940, 64);
        postWrite(scenario, 0, 941, 64);
        postWrite(scenario, 0, 942, 64);
        scenario.await("WRITE", 0).put("msn", 0);
        return scenario.expectResponses("WRITE", 1, 1);
    }

    private static Scenario psnsFromInitialSendPsn() {
        final byte[] data = Scenarios.pattern(MESSAGE, 45);
        final Scenario scenario = source(
                new Scenario(
                        "6.1.1/dut-psns-from-initial-send-psn",
                        "valid",
                        "Ensure that the DUT's first packet on a path carries the connection's initial send PSN"
                                + " (2^32 - 3) and each next one the previous plus 1 modulo 2^32, across the wrap,"
                                + " for two 10000-byte WRITEs and a READ_REQUEST",
                        "6.1.1"),
                data);
        scenario.initialSendPsn(0xFFFF_FFFDL);
        postWrite(scenario, 0, 930, MESSAGE);
        postWrite(scenario, 0, 931, MESSAGE);
        scenario.post("READ", 0, 932, "source", 32 * 1024, 64, TESTER_ADDRESS, TESTER_KEY);
        scenario.await("WRITE", 0);
        scenario.await("WRITE", 0);
        scenario.await("READ_REQUEST", 0);
        scenario.profiles.add("read");
        return scenario.expectSentPsnsFromInitial();
    }

    /**
     * Clause 7.4.2 with the DUT as requester: the tester answers its READ out of order (the last segment first, a
     * duplicate of a middle one, then the first) and checks placement on arrival and that the READ completes only
     * when every byte has arrived.
     */
    private static Scenario readAnsweredOutOfOrder() {
        final int length = 4 * READ_SEGMENT - 9;
        final byte[] data = Scenarios.pattern(length, 46);
        final int sinkOffset = 1;
        final Scenario scenario = new Scenario(
                        "7.4.2/read-answered-out-of-order",
                        "valid",
                        "Ensure that the DUT, as requester of a 4087-byte READ, places each READ_RESPONSE at its sink"
                                + " offset on arrival whatever the order (the last first, a middle one twice, the"
                                + " first last) and completes the READ only once every byte has arrived",
                        "7.4.2",
                        "7.5.4")
                .region("sink", SOURCE_LENGTH, "LOCAL_WRITE")
                .request("read", RECORDED_SINK_HANDLE, 0)
                .post("READ", 0, 700, "sink", sinkOffset, length, TESTER_ADDRESS, TESTER_KEY);
        scenario.profiles.add("read");
        scenario.await("READ_REQUEST", 0)
                .put("as", "read")
                .put("messageLength", length)
                .put("remoteAddress", String.format("0x%08x", TESTER_ADDRESS))
                .put("remoteKey", String.format("0x%08x", TESTER_KEY));
        final int[] frames = new int[4];
        for (int i = 0; i < 4; i++) {
            final int from = i * READ_SEGMENT;
            final byte[] slice = Arrays.copyOfRange(data, from, Math.min(length, from + READ_SEGMENT));
            frames[i] = scenario.frame(
                    0,
                    PacketBuilder.readResponse()
                            .connection(Scenarios.CONNECTION)
                            .path(0)
                            .psn(Scenarios.PSN_BASE + i)
                            .stream(0)
                            .msn(0)
                            .messageLength(length)
                            .messageOffset(from)
                            .sinkHandle(RECORDED_SINK_HANDLE)
                            .transmitTimestamp(2000 + i)
                            .payload(slice)
                            .ackRequest()
                            .build());
        }
        scenario.sendFrames(frames[3]);
        scenario.checkOnTheWay("sink", sinkOffset + 3 * READ_SEGMENT, Scenarios.hex(slice(data, 3)), 700);
        scenario.sendFrames(frames[1], frames[1], frames[2]);
        scenario.checkOnTheWay("sink", sinkOffset + READ_SEGMENT, Scenarios.hex(slice(data, 1)));
        scenario.checkOnTheWay("sink", sinkOffset + 2 * READ_SEGMENT, Scenarios.hex(slice(data, 2)), 700);
        scenario.sendFrames(frames[0]);
        final byte[] whole = new byte[length + 65];
        System.arraycopy(data, 0, whole, 1, length);
        return scenario.expectCompletion(700, "SUCCESS", "READ")
                .expectRegion("sink", 0, Scenarios.hex(whole))
                .never("NACK");
    }

    /**
     * Clause 5.2.6 with the DUT as responder: a READ_REQUEST with MSN 1 (after a WRITE with MSN 0) is answered by
     * READ_RESPONSEs that carry its sink handle, stream, MSN and message length and, together, the bytes read.
     */
    private static Scenario readResponseFields() {
        final int length = 3000;
        final byte[] data = Scenarios.pattern(length, 47);
        final long sinkHandle = 0x31;
        final Scenario scenario = new Scenario(
                        "5.2.6/read-response-fields",
                        "valid",
                        "Ensure that the READ_RESPONSEs the DUT answers a 3000-byte READ_REQUEST (MSN 1, after a"
                                + " WRITE with MSN 0) with carry the request's sink handle, stream, MSN and message"
                                + " length, message offsets within the read, and together exactly the bytes read",
                        "5.2.6")
                .region("target", 64 * 1024, data, "LOCAL_WRITE", "REMOTE_WRITE", "REMOTE_READ");
        scenario.profiles.add("read");
        final int write = scenario.frame(
                0,
                PacketBuilder.write().connection(Scenarios.CONNECTION).path(0).psn(Scenarios.PSN_BASE).stream(0)
                        .msn(0)
                        .messageLength(64)
                        .messageOffset(0)
                        // Outside the READ's range, and must stay so: the READ follows this WRITE in the same step,
                        // unacknowledged, and clause 7.4.1 fixes no order between the two.
                        .remoteAddress(Scenarios.TARGET_ADDRESS + 60_000)
                        .remoteKey(Scenarios.TARGET_KEY)
                        .transmitTimestamp(3000)
                        .payload(Scenarios.pattern(64, 48))
                        .ackRequest()
                        .build());
        final int read = scenario.frame(
                0,
                PacketBuilder.readRequest().connection(Scenarios.CONNECTION).path(0).psn(Scenarios.PSN_BASE + 1).stream(
                                0)
                        .msn(1)
                        .messageLength(length)
                        .messageOffset(0)
                        .remoteAddress(Scenarios.TARGET_ADDRESS)
                        .remoteKey(Scenarios.TARGET_KEY)
                        .sinkHandle(sinkHandle)
                        .transmitTimestamp(3001)
                        .ackRequest()
                        .build());
        scenario.sendFrames(write, read);
        scenario.await("READ_RESPONSE", 0)
                .put("msn", 1)
                .put("messageLength", length)
                .put("sinkHandle", String.format("0x%08x", sinkHandle))
                .put("payloadSha256", Scenarios.sha256(data));
        return scenario.expectResponse("READ_RESPONSE", 1).never("NACK");
    }

    private static byte[] slice(final byte[] data, final int index) {
        return Arrays.copyOfRange(data, index * READ_SEGMENT, Math.min(data.length, (index + 1) * READ_SEGMENT));
    }
}
