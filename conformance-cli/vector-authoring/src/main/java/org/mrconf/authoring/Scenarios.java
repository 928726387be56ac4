package org.mrconf.authoring;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.mrconf.peer.PacketBuilder;

/**
 * The built-in tester scenarios {@code vectors record} turns into the committed corpus: the invalid and inopportune
 * kinds (bad CRC, unknown version and opcode, truncation, out-of-window PSN, bad key, out-of-bounds offset, a SEND with
 * no receive posted or longer than its receive, a duplicate, a stale packet after completion, unknown connection,
 * stream and path, missing access rights, the receive-check order, malformed ACK and READ_REQUEST fields, the PSN
 * recording of NACKed packets) and the valid ones (every arrival order of a 4-packet WRITE, a WRITE across the PSN
 * wrap, a later minor version, placement at an offset, RSN matching out of order, several paths and streams, a PROBE,
 * a READ_REQUEST answered, a zero-length SEND). Each expectation is the spec's, not the reference's output.
 */
public final class Scenarios {
    /** The placeholder values every stimulus is recorded with; replay rewrites them to the DUT's. */
    static final long CONNECTION = 0x0001_0001L;

    static final long PSN_BASE = 0;
    static final long TARGET_ADDRESS = 0x7000_0000L;
    static final long TARGET_KEY = 0x0000_0077L;
    /** A key that names no region: replay leaves it as it is. */
    static final long FOREIGN_KEY = 0x5EC0_0BADL;

    static final int TARGET_LENGTH = 64 * 1024;
    private static final int SEGMENT = 1024;

    private Scenarios() {}

    public static List<Scenario> all() {
        final List<Scenario> all = new ArrayList<>();
        all.add(badCrc());
        all.add(unknownMajorVersion());
        all.add(laterMinorVersion());
        all.add(unknownOpcode());
        all.add(truncated());
        all.add(outOfWindow());
        all.add(badKey());
        all.add(outOfBounds());
        all.add(sendWithoutReceive());
        all.add(duplicate());
        all.add(staleAfterCompletion());
        all.add(acrossTheWrap());
        all.addAll(everyArrivalOrder());
        all.add(writeAtOffset());
        all.add(sendsMatchedByRsn());
        all.add(sendLongerThanReceive());
        all.add(writeWithoutRemoteWrite());
        all.add(unknownConnection());
        all.add(unknownStream());
        all.add(unknownPath());
        all.add(badCrcAndUnknownVersion());
        all.add(spreadOverTwoPaths());
        all.add(lossOnOnePathLeavesTheOther());
        all.add(writeRepairedAfterALoss());
        all.add(receiverNotReadyNotRecorded());
        all.add(acknowledgedOnlyOncePlaced());
        all.add(everyGapAndDuplicateAcknowledged());
        all.add(everyAckRequestAnswered());
        all.add(remoteAccessRecorded());
        all.add(readRequestAnswered());
        all.add(duplicateReadRequestAnsweredOnce());
        all.add(sackBitsLeastSignificantFirst());
        all.add(sackAcrossTheWindowPerPath());
        all.add(echoOfTheLatestArrival());
        all.add(nackNamesTheRejectedPacket());
        all.add(sendWaitsForTheWriteBeforeIt());
        all.add(zeroLengthSend());
        all.add(segmentPastMessage());
        all.add(ackWithSackBitZero());
        all.add(eightPaths());
        all.add(sixteenStreams());
        all.add(probeConsumesNoPsn());
        all.add(readRequestWithPayloadLength());
        all.add(reservedFieldsIgnored());
        all.addAll(CheckOrderScenarios.all());
        all.addAll(ControlStepScenarios.all());
        all.addAll(LinkScenarios.all());
        all.addAll(FramingScenarios.all());
        all.addAll(PacingScenarios.all());
        all.addAll(WindowScenarios.all());
        all.addAll(PathHealthScenarios.all());
        all.addAll(RttScenarios.all());
        all.addAll(LongHaulScenarios.all());
        all.addAll(SenderScenarios.all());
        all.addAll(SilentTesterScenarios.all());
        all.addAll(AnswerScenarios.all());
        all.addAll(ReadRequesterScenarios.all());
        all.addAll(UnclaimedProfileScenarios.all());
        return all;
    }

    static Scenario target(final Scenario scenario) {
        return scenario.region("target", TARGET_LENGTH, "LOCAL_WRITE", "REMOTE_WRITE", "REMOTE_READ");
    }

    static PacketBuilder write(
            final long psn, final long msn, final int offset, final int messageLength, final byte[] payload) {
        return PacketBuilder.write().connection(CONNECTION).path(0).psn(PSN_BASE + psn).stream(0)
                .msn(msn)
                .messageLength(messageLength)
                .messageOffset(offset)
                .remoteAddress(TARGET_ADDRESS)
                .remoteKey(TARGET_KEY)
                .transmitTimestamp(1000 + psn)
                .payload(payload)
                .ackRequest();
    }

    /** The {@code index}-th {@link #SEGMENT}-byte slice of {@code message}. */
    static byte[] segmentOf(final byte[] message, final int index) {
        return java.util.Arrays.copyOfRange(message, index * SEGMENT, (index + 1) * SEGMENT);
    }

    static byte[] pattern(final int length, final int seed) {
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 31 + seed * 7 + 1);
        }
        return bytes;
    }

    static String zeros(final int length) {
        return "00".repeat(length);
    }

    private static Scenario badCrc() {
        return target(new Scenario(
                        "5.6.2/bad-crc-write",
                        "invalid",
                        "Ensure that the DUT silently drops a WRITE whose CRC32C is wrong, counts it and places nothing",
                        "5.6.2",
                        "5.6.1"))
                .send(0, write(0, 0, 0, 64, pattern(64, 1)).badCrc().build())
                .never("ACK")
                .never("NACK")
                .expectCounter("rx_bad_crc", 1)
                .expectRegion("target", 0, zeros(64));
    }

    private static Scenario unknownMajorVersion() {
        return target(new Scenario(
                        "5.6.3/unknown-major-version",
                        "invalid",
                        "Ensure that the DUT drops and counts a packet of major version 2, places nothing and answers"
                                + " nothing",
                        "5.6.3"))
                .send(0, write(0, 0, 0, 64, pattern(64, 2)).version(0x20).build())
                .never("ACK")
                .never("NACK")
                .expectCounter("rx_unsupported_version", 1)
                .expectRegion("target", 0, zeros(64));
    }

    private static Scenario laterMinorVersion() {
        final byte[] payload = pattern(64, 3);
        return target(new Scenario(
                        "5.6.3/later-minor-version",
                        "valid",
                        "Ensure that the DUT accepts a WRITE of version 1.15 as a 1.0 packet",
                        "5.6.3"))
                .send(0, write(0, 0, 0, 64, payload).version(0x1F).build())
                .expectAck(0, 1, 1)
                .expectRegion("target", 0, HexFormat.of().formatHex(payload));
    }

    private static Scenario unknownOpcode() {
        return target(new Scenario(
                        "5.1.2/unknown-opcode",
                        "invalid",
                        "Ensure that the DUT drops and counts a packet with an opcode not in Table 5-2",
                        "5.1.2"))
                .send(
                        0,
                        PacketBuilder.opcode(0x7E)
                                .connection(CONNECTION)
                                .path(0)
                                .psn(PSN_BASE)
                                .build())
                .never("ACK")
                .never("NACK")
                .expectCounter("rx_unknown_opcode", 1);
    }

    private static Scenario truncated() {
        return target(new Scenario(
                        "5.1.3/truncated-write",
                        "invalid",
                        "Ensure that the DUT drops and counts a WRITE cut short inside its header",
                        "5.1.3"))
                .send(0, write(0, 0, 0, 64, pattern(64, 4)).truncateTo(30).build())
                .never("ACK")
                .never("NACK")
                .expectCounter("rx_truncated", 1)
                .expectRegion("target", 0, zeros(64));
    }

    private static Scenario outOfWindow() {
        return target(new Scenario(
                        "6.1.4/psn-beyond-window",
                        "inopportune",
                        "Ensure that the DUT places nothing from a packet 300 PSNs past the cumulative PSN and answers"
                                + " it with NACK PSN_OUT_OF_WINDOW",
                        "6.1.4"))
                .send(0, write(300, 0, 0, 64, pattern(64, 5)).build())
                .expectNack("PSN_OUT_OF_WINDOW")
                .expectRegion("target", 0, zeros(64));
    }

    private static Scenario badKey() {
        return target(new Scenario(
                        "11.1.1/write-with-foreign-key",
                        "invalid",
                        "Ensure that the DUT refuses a WRITE whose key names no region with NACK REMOTE_ACCESS and"
                                + " places nothing",
                        "11.1.1"))
                .send(
                        0,
                        write(0, 0, 0, 64, pattern(64, 6))
                                .remoteKey(FOREIGN_KEY)
                                .build())
                .expectNack("REMOTE_ACCESS")
                .expectRegion("target", 0, zeros(64));
    }

    private static Scenario outOfBounds() {
        return target(new Scenario(
                        "11.1.3/write-past-region-end",
                        "invalid",
                        "Ensure that the DUT refuses a WRITE that runs 32 bytes past its region with NACK BOUNDS and"
                                + " places none of it",
                        "11.1.3"))
                .send(
                        0,
                        write(0, 0, 0, 64, pattern(64, 7))
                                .remoteAddress(TARGET_ADDRESS + TARGET_LENGTH - 32)
                                .build())
                .expectNack("BOUNDS")
                .expectRegion("target", TARGET_LENGTH - 32, zeros(32));
    }

    private static Scenario sendWithoutReceive() {
        return target(new Scenario(
                        "7.3.2/send-without-posted-receive",
                        "inopportune",
                        "Ensure that the DUT answers a SEND for which no receive is posted with NACK"
                                + " RECEIVER_NOT_READY",
                        "7.3.2"))
                .send(
                        0,
                        PacketBuilder.send().connection(CONNECTION).path(0).psn(PSN_BASE).stream(0)
                                .msn(0)
                                .messageLength(64)
                                .messageOffset(0)
                                .rsn(0)
                                .transmitTimestamp(1000)
                                .payload(pattern(64, 8))
                                .ackRequest()
                                .build())
                .expectNack("RECEIVER_NOT_READY")
                .noOtherCompletions();
    }

    private static Scenario duplicate() {
        final byte[] payload = pattern(64, 9);
        final byte[] packet = write(0, 0, 0, 64, payload).build();
        return target(new Scenario(
                        "6.5.1/duplicate-write",
                        "inopportune",
                        "Ensure that the DUT acknowledges a duplicate WRITE again, counts it and leaves the placed bytes"
                                + " as they are",
                        "6.5.1"))
                .send(0, packet)
                .send(0, packet)
                .expectAck(0, 1, 2)
                .expectCounter("rx_duplicate", 1)
                .expectRegion("target", 0, HexFormat.of().formatHex(payload));
    }

    private static Scenario staleAfterCompletion() {
        final byte[] payload = pattern(64, 10);
        final PacketBuilder original =
                PacketBuilder.writeWithImmediate().connection(CONNECTION).path(0).psn(PSN_BASE).stream(0)
                        .msn(0)
                        .messageLength(64)
                        .messageOffset(0)
                        .remoteAddress(TARGET_ADDRESS)
                        .remoteKey(TARGET_KEY)
                        .immediate(0xC0FFEE)
                        .transmitTimestamp(1000)
                        .payload(payload)
                        .ackRequest();
        final Scenario scenario = target(new Scenario(
                "7.5.5/stale-retransmission-after-completion",
                "inopportune",
                "Ensure that a retransmission of a completed WRITE_WITH_IMMEDIATE is acknowledged but completes"
                        + " nothing again",
                "7.5.5",
                "7.5.6",
                "7.2.2"));
        scenario.profiles.add("immediate"); // a device without it refuses WRITE_WITH_IMMEDIATE (clause 5.6.7)
        return scenario.send(0, original.build())
                .send(0, original.retransmission().transmitTimestamp(2000).build())
                .expectAck(0, 1, 2)
                // A RECEIVE_IMMEDIATE consumes no posted receive; the control protocol reports it with wrId 0.
                .expectCompletion(0, "SUCCESS", "RECEIVE_IMMEDIATE", 0xC0FFEE)
                .noOtherCompletions()
                .expectRegion("target", 0, HexFormat.of().formatHex(payload));
    }

    private static Scenario acrossTheWrap() {
        final byte[] message = pattern(4 * SEGMENT, 11);
        final Scenario scenario = target(new Scenario(
                "6.1.2/write-across-psn-wrap",
                "valid",
                "Ensure that a 4-packet WRITE whose PSNs run from 2^32 - 2 across the wrap to 1 is placed whole and"
                        + " acknowledged up to PSN 2",
                "6.1.2",
                "6.2.2"));
        scenario.setup.put("initialPsn", 0xFFFF_FFFEL);
        for (int i = 0; i < 4; i++) {
            scenario.send(0, segment(message, i, i));
        }
        return scenario.expectAck(0, 4, 1).expectRegionSha256("target", 0, message.length, sha256(message));
    }

    /** The 24 arrival orders of one 4-packet WRITE: each must be placed whole, with no reorder buffer needed. */
    private static List<Scenario> everyArrivalOrder() {
        final List<Scenario> out = new ArrayList<>();
        final byte[] message = pattern(4 * SEGMENT, 12);
        for (final int[] order : permutations(new int[] {0, 1, 2, 3})) {
            final StringBuilder name = new StringBuilder();
            for (final int i : order) {
                name.append(i);
            }
            final Scenario scenario = target(new Scenario(
                    "7.1.1/write-arrival-order-" + name,
                    "valid",
                    "Ensure that the 4 packets of one WRITE arriving in the order " + name + " are each placed on"
                            + " arrival and the message is whole",
                    "7.1.1",
                    "7.1.2",
                    "6.3.2"));
            for (final int i : order) {
                scenario.send(0, segment(message, i, i));
            }
            out.add(scenario.expectAck(0, 4, 1)
                    .noOtherCompletions()
                    .expectRegionSha256("target", 0, message.length, sha256(message)));
        }
        return out;
    }

    private static PacketBuilder send(final long psn, final long msn, final long rsn, final byte[] payload) {
        return PacketBuilder.send().connection(CONNECTION).path(0).psn(PSN_BASE + psn).stream(0)
                .msn(msn)
                .messageLength(payload.length)
                .messageOffset(0)
                .rsn(rsn)
                .transmitTimestamp(1000 + psn)
                .payload(payload)
                .ackRequest();
    }

    static String hex(final byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    private static Scenario writeAtOffset() {
        final byte[] payload = pattern(256, 13);
        return target(new Scenario(
                        "7.2.1/write-at-region-offset",
                        "valid",
                        "Ensure that the DUT places a WRITE to the region's address plus 4096 at offset 4096 of the"
                                + " region named by its key, and nothing around it",
                        "7.2.1"))
                .send(
                        0,
                        write(0, 0, 0, 256, payload)
                                .remoteAddress(TARGET_ADDRESS + 4096)
                                .build())
                .expectAck(0, 1, 1)
                .expectRegion("target", 4096 - 32, zeros(32))
                .expectRegion("target", 4096, hex(payload))
                .expectRegion("target", 4096 + 256, zeros(32));
    }

    private static Scenario sendsMatchedByRsn() {
        final byte[] first = pattern(128, 14);
        final byte[] second = pattern(128, 15);
        return target(new Scenario(
                        "7.3.1/sends-matched-by-rsn-out-of-order",
                        "valid",
                        "Ensure that the DUT places the SEND with RSN 1, arriving first, into the second"
                                + " receive posted and the SEND with RSN 0 into the first, completing both",
                        "7.3.1",
                        "7.5.1"))
                .receive(0, "target", 0, 256, 1)
                .receive(0, "target", 1024, 256, 2)
                .send(0, send(1, 1, 1, second).build())
                .send(0, send(0, 0, 0, first).build())
                .expectAck(0, 2, 1)
                .expectRegion("target", 0, hex(first))
                .expectRegion("target", 1024, hex(second))
                .expectCompletion(1, "SUCCESS", "RECEIVE")
                .expectCompletion(2, "SUCCESS", "RECEIVE")
                .noOtherCompletions();
    }

    private static Scenario sendLongerThanReceive() {
        return target(new Scenario(
                        "7.3.3/send-longer-than-receive",
                        "invalid",
                        "Ensure that the DUT answers a 64-byte SEND matched to a 32-byte receive with NACK"
                                + " MESSAGE_TOO_LONG, places none of it, and completes the receive with a"
                                + " length error",
                        "7.3.3",
                        "11.1.5"))
                .receive(0, "target", 0, 32, 1)
                .send(0, send(0, 0, 0, pattern(64, 16)).build())
                .expectNack("MESSAGE_TOO_LONG")
                .expectCounter("reject_message_too_long", 1)
                .expectRegion("target", 0, zeros(64))
                .expectCompletion(1, "LOCAL_LENGTH_ERROR", "RECEIVE")
                .noOtherCompletions();
    }

    private static Scenario writeWithoutRemoteWrite() {
        return new Scenario(
                        "11.1.2/write-without-remote-write",
                        "invalid",
                        "Ensure that the DUT refuses a WRITE into a region registered without REMOTE_WRITE with NACK"
                                + " REMOTE_ACCESS and places nothing",
                        "11.1.2",
                        "9.1.3")
                .region("target", TARGET_LENGTH, "LOCAL_WRITE", "REMOTE_READ")
                .send(0, write(0, 0, 0, 64, pattern(64, 17)).build())
                .expectNack("REMOTE_ACCESS")
                .expectCounter("reject_remote_access", 1)
                .expectRegion("target", 0, zeros(64)); // an ACK may follow: 9.1.4 records a final code's PSN
    }

    private static Scenario unknownConnection() {
        return target(new Scenario(
                        "11.2.1/write-to-unknown-connection",
                        "invalid",
                        "Ensure that the DUT drops and counts a WRITE for a connection it does not have, places"
                                + " nothing and acknowledges nothing",
                        "11.2.1"))
                // Not the placeholder connection id, so replay leaves it as it is.
                .send(
                        0,
                        write(0, 0, 0, 64, pattern(64, 18))
                                .connection(0x0BAD_C0DEL)
                                .build())
                .never("ACK")
                .expectCounter("rx_unknown_connection", 1)
                .expectRegion("target", 0, zeros(64));
    }

    private static Scenario unknownStream() {
        return target(new Scenario(
                        "5.6.5/write-on-unknown-stream",
                        "invalid",
                        "Ensure that the DUT answers a WRITE on stream 7 of a one-stream connection with NACK"
                                + " INVALID_REQUEST, counts it as a rejection and not as a drop, and places nothing",
                        "5.6.5",
                        "9.1.1"))
                .send(0, write(0, 0, 0, 64, pattern(64, 19)).stream(7).build())
                .expectNack("INVALID_REQUEST")
                .expectCounter("reject_invalid_request", 1)
                .expectCounter("rx_invalid_field", 0)
                .expectRegion("target", 0, zeros(64));
    }

    private static Scenario unknownPath() {
        return target(new Scenario(
                        "3.1.1/write-on-unknown-path",
                        "invalid",
                        "Ensure that the DUT silently drops and counts a WRITE on path 9 of a one-path connection and"
                                + " places nothing",
                        "3.1.1",
                        "5.6.5"))
                .send(0, write(0, 0, 0, 64, pattern(64, 20)).path(9).build())
                .never("ACK")
                .never("NACK")
                .expectCounter("rx_invalid_path", 1)
                .expectRegion("target", 0, zeros(64));
    }

    private static Scenario badCrcAndUnknownVersion() {
        return target(new Scenario(
                        "5.6.4/unknown-version-before-bad-crc",
                        "invalid",
                        "Ensure that the DUT counts a packet of major version 2 with a bad CRC32C under the version"
                                + " check, which comes first, and not under the CRC check",
                        "5.6.4"))
                .send(
                        0,
                        write(0, 0, 0, 64, pattern(64, 21))
                                .version(0x20)
                                .badCrc()
                                .build())
                .never("ACK")
                .never("NACK")
                .expectCounter("rx_unsupported_version", 1)
                .expectCounter("rx_bad_crc", 0)
                .expectRegion("target", 0, zeros(64));
    }

    private static Scenario spreadOverTwoPaths() {
        final byte[] message = pattern(4 * SEGMENT, 22);
        final Scenario scenario = target(new Scenario(
                "3.1.6/write-spread-over-two-paths",
                "valid",
                "Ensure that the DUT places a 4-packet WRITE sent on paths 0, 1, 0, 0, each path numbering its own"
                        + " PSNs, and describes in each ACK only the path it names (path 0 up to PSN 3, path 1 up"
                        + " to PSN 1)",
                "3.1.6",
                "8.1.5"));
        scenario.setup.put("paths", 2);
        final int[] paths = {0, 1, 0, 0};
        final long[] psns = {0, 0, 1, 2};
        for (int i = 0; i < 4; i++) {
            scenario.send(
                    paths[i],
                    write(psns[i], 0, i * SEGMENT, message.length, segmentOf(message, i))
                            .path(paths[i])
                            .build());
        }
        return scenario.expectAck(0, 3, 1)
                .expectAck(1, 1, 1)
                .neverAck(1, 2)
                .neverAck(1, 3)
                .noOtherCompletions()
                .expectRegionSha256("target", 0, message.length, sha256(message));
    }

    /**
     * Clause 3.1.2: each path keeps its own receive state. An 8-packet WRITE goes out on two paths that both number
     * their PSNs from 0, four packets each, interleaved; path 0's PSN 1 is lost. Path 1's PSNs 0 to 3, equal to PSNs
     * path 0 has (or lacks), are new on path 1: placed, and acknowledged up to 4 with no SACK bit, while path 0's
     * ACKs keep the gap (cumulative 1, SACK bits for PSNs 2 and 3).
     */
    private static Scenario lossOnOnePathLeavesTheOther() {
        final byte[] message = pattern(8 * SEGMENT, 23);
        final Scenario scenario = target(new Scenario(
                "3.1.2/loss-on-one-path-leaves-the-other",
                "inopportune",
                "Ensure that a loss on one path changes nothing on another: of an 8-packet WRITE sent on paths 0 and 1,"
                        + " both numbering their PSNs from 0, with path 0's PSN 1 lost, the DUT places every packet"
                        + " but the lost one, acknowledges path 1 up to PSN 4 with no SACK bit and path 0 with"
                        + " cumulative PSN 1 and SACK bits for PSNs 2 and 3",
                "3.1.2"));
        scenario.setup.put("paths", 2);
        // Segment i goes on path i / 4 as PSN i % 4; the order interleaves the paths, and segment 1 never arrives.
        final int[] order = {0, 4, 2, 5, 3, 6, 7};
        for (final int segment : order) {
            scenario.send(
                    segment / 4,
                    write(segment % 4, 0, segment * SEGMENT, message.length, segmentOf(message, segment))
                            .path(segment / 4)
                            .build());
        }
        final byte[] placed = message.clone();
        java.util.Arrays.fill(placed, SEGMENT, 2 * SEGMENT, (byte) 0);
        return scenario.expectAckWithSack(1, 4)
                .expectAckWithSack(0, 1, 1, 2)
                .neverAck(0, 4)
                .never("NACK")
                .noOtherCompletions()
                .expectRegionSha256("target", 0, placed.length, sha256(placed));
    }

    /**
     * Clause 4.1.8: a fabric that drops packets. A 4-packet WRITE loses PSN 1; PSNs 2 and 3 arrive, then PSN 1's
     * retransmission (RETRANSMISSION flag, a later timestamp). The DUT places every packet as it arrives, so the whole
     * message is in place once the retransmission is, and acknowledges up to PSN 4; it needs no flow control to keep
     * the lost packet from being overtaken.
     */
    private static Scenario writeRepairedAfterALoss() {
        final byte[] message = pattern(4 * SEGMENT, 24);
        final Scenario scenario = target(new Scenario(
                "4.1.8/write-repaired-after-a-loss",
                "inopportune",
                "Ensure that the DUT delivers a 4-packet WRITE whose PSN 1 was lost on the way: it places PSNs 0, 2"
                        + " and 3 as they arrive and the retransmission of PSN 1 after them, holds the whole message"
                        + " and acknowledges up to PSN 4",
                "4.1.8"));
        for (final int psn : new int[] {0, 2, 3, 1}) {
            final PacketBuilder packet = write(psn, 0, psn * SEGMENT, message.length, segmentOf(message, psn));
            if (psn == 1) {
                packet.retransmission().transmitTimestamp(1000 + 10);
            }
            scenario.send(0, packet.build());
        }
        return scenario.expectAck(0, 4, 1)
                .never("NACK")
                .noOtherCompletions()
                .expectRegionSha256("target", 0, message.length, sha256(message));
    }

    private static Scenario receiverNotReadyNotRecorded() {
        final byte[] payload = pattern(64, 23);
        return target(new Scenario(
                        "9.1.4/receiver-not-ready-psn-not-recorded",
                        "inopportune",
                        "Ensure that the DUT does not record the PSN of a SEND it NACKs RECEIVER_NOT_READY: a WRITE"
                                + " on the next PSN is placed, but no ACK reports the cumulative PSN past the SEND",
                        "9.1.4",
                        "7.3.2"))
                .send(0, send(0, 0, 0, pattern(64, 24)).build())
                .send(0, write(1, 1, 0, 64, payload).build())
                .expectNack("RECEIVER_NOT_READY")
                .expectAck(0, 0, 1)
                .neverAck(0, 1)
                .neverAck(0, 2)
                .expectRegion("target", 0, hex(payload));
    }

    /**
     * Clause 8.1.1: the four segments of a WRITE arrive out of order (2, 0, 3, 1), so the first ACK SACKs a segment
     * beyond a gap; whatever an ACK reports must be in memory when the tester reads it right after that ACK. A SEND
     * NACKed RECEIVER_NOT_READY is never placed, so no ACK may report it.
     */
    private static Scenario acknowledgedOnlyOncePlaced() {
        final byte[] message = pattern(4 * SEGMENT, 97);
        final Scenario scenario = target(new Scenario(
                "8.1.1/acknowledged-only-once-placed",
                "inopportune",
                "Ensure that every PSN the DUT reports as received, by cumulative PSN or SACK bit, has its payload in"
                        + " memory when the tester reads it right after that ACK, for the segments of a WRITE that"
                        + " arrive out of order, and that it never reports a SEND it NACKed RECEIVER_NOT_READY",
                "8.1.1"));
        for (final int segment : new int[] {2, 0, 3, 1}) {
            scenario.send(0, segment(message, segment, segment));
        }
        return scenario.send(0, send(4, 1, 0, pattern(64, 98)).build())
                .expectPlacedWhenAcknowledged()
                .expectNack("RECEIVER_NOT_READY")
                .expectAck(0, 4, 1)
                .neverAck(0, 5)
                .expectRegion("target", 0, hex(message));
    }

    /**
     * Clause 8.1.2: six one-packet WRITEs without ACK_REQUEST, each on a PSN past a gap (1, 3, ... 11), then
     * duplicates of two of them. Each of the eight arrivals is not the path's cumulative PSN and owes an ACK at once,
     * so at least eight ACKs come, every one with the cumulative PSN still at the first gap. Counting ACKs races no
     * timer: a DUT that coalesced them would send fewer, however late.
     */
    private static Scenario everyGapAndDuplicateAcknowledged() {
        final Scenario scenario = target(new Scenario(
                "8.1.2/every-gap-and-duplicate-acknowledged",
                "inopportune",
                "Ensure that the DUT sends an ACK for each of six WRITEs without ACK_REQUEST that open or extend a gap"
                        + " and for each of two duplicates of them, at least eight ACKs with the cumulative PSN at the"
                        + " gap, and places the six",
                "8.1.2"));
        final java.util.Map<Integer, PacketBuilder> sent = new java.util.HashMap<>();
        for (int psn = 1; psn < 12; psn += 2) {
            final byte[] payload = pattern(64, 100 + psn);
            final PacketBuilder packet = write(psn, psn, 0, 64, payload)
                    .remoteAddress(TARGET_ADDRESS + 128L * psn)
                    .flags(0);
            sent.put(psn, packet);
            scenario.send(0, packet.build()).expectRegion("target", 128 * psn, hex(payload));
        }
        scenario.send(0, sent.get(1).retransmission().build());
        scenario.send(0, sent.get(3).retransmission().build());
        return scenario.expectAck(0, 0, 8).never("NACK");
    }

    /**
     * Clause 8.1.3: five in-order one-packet WRITEs and a duplicate of the first, each with ACK_REQUEST: each owes
     * its own ACK at once, so at least six ACKs come, whatever coalescing the DUT does otherwise.
     */
    private static Scenario everyAckRequestAnswered() {
        final Scenario scenario = target(new Scenario(
                "8.1.3/every-ack-request-answered",
                "valid",
                "Ensure that the DUT sends its own ACK for each of five in-order WRITEs with ACK_REQUEST and for a"
                        + " duplicate of the first with ACK_REQUEST, at least six ACKs, and places the five",
                "8.1.3"));
        PacketBuilder first = null;
        for (int psn = 0; psn < 5; psn++) {
            final byte[] payload = pattern(64, 120 + psn);
            final PacketBuilder packet = write(psn, psn, 0, 64, payload).remoteAddress(TARGET_ADDRESS + 128L * psn);
            first = first == null ? packet : first;
            scenario.send(0, packet.build()).expectRegion("target", 128 * psn, hex(payload));
        }
        scenario.send(0, first.retransmission().build());
        return scenario.expectResponse("ACK", 6).expectAck(0, 5, 1).never("NACK");
    }

    private static Scenario remoteAccessRecorded() {
        final byte[] payload = pattern(64, 25);
        return target(new Scenario(
                        "9.1.4/remote-access-psn-recorded",
                        "invalid",
                        "Ensure that the DUT records the PSN of a WRITE it NACKs REMOTE_ACCESS (a final code), so"
                                + " the ACK after the next WRITE reports the cumulative PSN past both",
                        "9.1.4",
                        "9.1.8",
                        "11.1.1"))
                .send(
                        0,
                        write(0, 0, 0, 64, pattern(64, 26))
                                .remoteKey(FOREIGN_KEY)
                                .build())
                .send(0, write(1, 1, 0, 64, payload).build())
                .expectNack("REMOTE_ACCESS")
                .expectAck(0, 2, 1)
                .expectRegion("target", 0, hex(payload));
    }

    private static Scenario readRequestAnswered() {
        final Scenario scenario = new Scenario(
                        "7.4.1/read-request-answered",
                        "valid",
                        "Ensure that the DUT answers a valid 2048-byte READ_REQUEST with READ_RESPONSEs and"
                                + " changes nothing in the region read",
                        "7.4.1")
                .region("target", TARGET_LENGTH, 0x5A, "LOCAL_WRITE", "REMOTE_WRITE", "REMOTE_READ")
                .send(
                        0,
                        PacketBuilder.readRequest().connection(CONNECTION).path(0).psn(PSN_BASE).stream(0)
                                .msn(0)
                                .messageLength(2048)
                                .messageOffset(0)
                                .remoteAddress(TARGET_ADDRESS)
                                .remoteKey(TARGET_KEY)
                                .sinkHandle(0x31)
                                .transmitTimestamp(1000)
                                .ackRequest()
                                .build())
                .expectResponse("READ_RESPONSE", 1)
                .never("NACK")
                .expectRegion("target", 0, "5a".repeat(64));
        scenario.profiles.add("read");
        return scenario;
    }

    /**
     * Clause 7.4.3: a READ_REQUEST and then its duplicate (the same PSN again) draw one READ_RESPONSE, first
     * transmissions counted; 256 bytes fit one packet at any MTU the draft allows.
     */
    private static Scenario duplicateReadRequestAnsweredOnce() {
        final byte[] request = PacketBuilder.readRequest().connection(CONNECTION).path(0).psn(PSN_BASE).stream(0)
                .msn(0)
                .messageLength(256)
                .messageOffset(0)
                .remoteAddress(TARGET_ADDRESS)
                .remoteKey(TARGET_KEY)
                .sinkHandle(0x32)
                .transmitTimestamp(1000)
                .ackRequest()
                .build();
        final Scenario scenario = new Scenario(
                        "7.4.3/duplicate-read-request-answered-once",
                        "inopportune",
                        "Ensure that the DUT answers a 256-byte READ_REQUEST and its duplicate (the same PSN sent"
                                + " again) with one READ_RESPONSE only, acknowledging the duplicate, and sends no NACK",
                        "7.4.3")
                .region("target", TARGET_LENGTH, 0x5A, "LOCAL_WRITE", "REMOTE_WRITE", "REMOTE_READ")
                .send(0, request)
                .send(0, request)
                .expectResponses("READ_RESPONSE", 1, 1)
                .expectResponse("ACK", 1)
                .never("NACK");
        scenario.profiles.add("read");
        return scenario;
    }

    /**
     * Table 5-9's SACK bitmap (clause 5.3.1): PSNs 0, 2, 3 and 9 arrive; the ACK after the last has cumulative PSN 1
     * and exactly bits 1, 2 and 8, least significant first in each byte (a device writing bytes most significant bit
     * first sets bits 6, 5 and 15 instead).
     */
    private static Scenario sackBitsLeastSignificantFirst() {
        final Scenario scenario = target(new Scenario(
                "5.3.1/ack-sack-bits-least-significant-first",
                "inopportune",
                "Ensure that after PSNs 0, 2, 3 and 9 of a path arrive the DUT acknowledges it with cumulative PSN 1"
                        + " and a SACK bitmap of exactly bits 1, 2 and 8 (bit i for PSN cumulative + i, least"
                        + " significant bit first in each byte, Table 5-9)",
                "5.3.1"));
        final long[] psns = {0, 2, 3, 9};
        for (int i = 0; i < psns.length; i++) {
            scenario.send(0, write(psns[i], i, 0, 64, pattern(64, 60 + i)).build());
        }
        return scenario.expectAckWithSack(0, 1, 1, 2, 8).never("NACK");
    }

    /**
     * Clause 6.2.1: each path keeps and reports its own receive state over the whole 256-PSN window. Path 0 receives
     * PSNs 0, 100 and 200 (bits 99 and 199, past the bitmap's first 64-bit word); path 1 receives 0, 1 and 2 and has
     * nothing to report in its bitmap.
     */
    private static Scenario sackAcrossTheWindowPerPath() {
        final Scenario scenario = target(new Scenario(
                "6.2.1/sack-across-the-window-per-path",
                "inopportune",
                "Ensure that the DUT reports each path's own receive state in its ACKs: path 0, after PSNs 0, 100 and"
                        + " 200, with cumulative PSN 1 and exactly SACK bits 99 and 199; path 1, after PSNs 0 to 2,"
                        + " with cumulative PSN 3 and no SACK bit",
                "6.2.1"));
        scenario.setup.put("paths", 2);
        final int[] paths = {0, 1, 0, 1, 0, 1};
        final long[] psns = {0, 0, 100, 1, 200, 2};
        for (int i = 0; i < psns.length; i++) {
            scenario.send(
                    paths[i],
                    write(psns[i], i, 0, 64, pattern(64, 70 + i)).path(paths[i]).build());
        }
        return scenario.expectAckWithSack(0, 1, 99, 199).expectAckWithSack(1, 3).never("NACK");
    }

    /**
     * Clause 8.2.1: an ACK echoes the latest arrival of its path, whatever its PSN. PSN 1, 0 and 2 arrive (timestamps
     * 2000, 1000, 3000), then a retransmission of PSN 1 stamped 5000: the ACK answering it, cumulative 3, echoes
     * 5000, not the highest PSN's 3000 nor the first packet's 2000. Any ACK that covers the retransmission is its
     * answer or a later one, so coalescing cannot make a conforming DUT fail.
     */
    private static Scenario echoOfTheLatestArrival() {
        final Scenario scenario = target(new Scenario(
                "8.2.1/ack-echoes-the-latest-arrival",
                "inopportune",
                "Ensure that the DUT, after PSNs 1, 0 and 2 of a path (timestamps 2000, 1000, 3000) and then a"
                        + " retransmission of PSN 1 stamped 5000, acknowledges the path with cumulative PSN 3 echoing"
                        + " 5000, the timestamp of the latest packet to arrive",
                "8.2.1"));
        final long[] psns = {1, 0, 2};
        final long[] stamps = {2000, 1000, 3000};
        for (int i = 0; i < psns.length; i++) {
            scenario.send(
                    0,
                    write(psns[i], psns[i], 0, 64, pattern(64, 80 + i))
                            .transmitTimestamp(stamps[i])
                            .build());
        }
        scenario.send(
                0,
                write(1, 1, 0, 64, pattern(64, 80))
                        .transmitTimestamp(5000)
                        .retransmission()
                        .build());
        return scenario.expectAckEchoing(0, 3, 5000).never("NACK");
    }

    /**
     * Table 5-10 (clause 5.4.1): a NACK names the packet it rejects by its path and PSN, stream and MSN. The rejected
     * WRITE (a foreign key) is PSN 1 of path 1, stream 1 MSN 1, after valid WRITEs on both paths and streams, so that
     * no field of the NACK can be right by being zero or by copying another packet.
     */
    private static Scenario nackNamesTheRejectedPacket() {
        final Scenario scenario = target(new Scenario(
                "5.4.1/nack-names-the-rejected-packet",
                "invalid",
                "Ensure that the DUT rejects a WRITE with a foreign key, sent as PSN 1 of path 1 on stream 1 with MSN"
                        + " 1, with a NACK REMOTE_ACCESS on path 1 whose psn field is that PSN, whose stream and MSN"
                        + " are the packet's and whose cumulative PSN is 1",
                "5.4.1"));
        scenario.setup.put("paths", 2).put("streams", 2);
        scenario.send(0, write(0, 0, 0, 64, pattern(64, 90)).build());
        scenario.send(0, write(1, 0, 0, 64, pattern(64, 91)).stream(1).build());
        scenario.send(1, write(0, 1, 0, 64, pattern(64, 92)).path(1).build());
        scenario.send(
                1,
                write(1, 1, 0, 64, pattern(64, 93)).path(1).stream(1)
                        .remoteKey(FOREIGN_KEY)
                        .build());
        return scenario.expectNackNaming(1, "REMOTE_ACCESS", 1, 1, 1, 1);
    }

    /**
     * Clause 7.5.9: a WRITE raises no receive completion but keeps its place in its stream. The second packet of a
     * two-packet WRITE (MSN 0) and a whole SEND (MSN 1) arrive; the SEND is placed at once (7.1.1) but its receive
     * must not complete while the WRITE lacks its first packet, and completes once that arrives.
     */
    private static Scenario sendWaitsForTheWriteBeforeIt() {
        final byte[] write = pattern(2 * SEGMENT, 95);
        final byte[] message = pattern(64, 96);
        final Scenario scenario = target(new Scenario(
                        "7.5.9/send-waits-for-the-write-before-it",
                        "inopportune",
                        "Ensure that the DUT does not complete the receive of a SEND (MSN 1) while the two-packet WRITE"
                                + " before it on the stream (MSN 0) lacks its first packet, although it places the"
                                + " SEND, and completes the receive once the WRITE's first packet arrives",
                        "7.5.9"))
                .receive(0, "target", 8192, 256, 1);
        final int first = scenario.frame(
                0,
                write(0, 0, 0, write.length, java.util.Arrays.copyOfRange(write, 0, SEGMENT))
                        .build());
        final int second = scenario.frame(
                0,
                write(1, 0, SEGMENT, write.length, java.util.Arrays.copyOfRange(write, SEGMENT, 2 * SEGMENT))
                        .build());
        final int sendPacket = scenario.frame(0, send(2, 1, 0, message).build());
        scenario.sendFrames(second, sendPacket);
        scenario.checkOnTheWay("target", 8192, hex(message), 1);
        scenario.sendFrames(first);
        return scenario.expectCompletion(1, "SUCCESS", "RECEIVE")
                .noOtherCompletions()
                .expectRegion("target", 0, hex(write));
    }

    private static Scenario zeroLengthSend() {
        return target(new Scenario(
                        "7.5.1/zero-length-send-completes",
                        "valid",
                        "Ensure that the DUT completes a posted receive when the one packet of a zero-length SEND"
                                + " arrives, and places nothing",
                        "7.5.1"))
                .receive(0, "target", 0, 256, 1)
                .send(0, send(0, 0, 0, new byte[0]).build())
                .expectAck(0, 1, 1)
                .expectCompletion(1, "SUCCESS", "RECEIVE")
                .noOtherCompletions()
                .expectRegion("target", 0, zeros(64));
    }

    private static Scenario segmentPastMessage() {
        return target(new Scenario(
                        "5.2.2/segment-past-message-length",
                        "invalid",
                        "Ensure that the DUT drops and counts a WRITE segment at offset 32 carrying 64 bytes of a"
                                + " 64-byte message, places nothing and acknowledges nothing",
                        "5.2.2"))
                .send(0, write(0, 0, 32, 64, pattern(64, 27)).build())
                .never("ACK")
                .never("NACK")
                .expectCounter("rx_inconsistent_length", 1)
                .expectRegion("target", 0, zeros(128));
    }

    private static Scenario ackWithSackBitZero() {
        return target(new Scenario(
                        "5.3.2/ack-with-sack-bit-zero",
                        "invalid",
                        "Ensure that the DUT drops and counts as an invalid field an ACK whose SACK bitmap sets bit 0",
                        "5.3.2"))
                .send(
                        0,
                        PacketBuilder.ack()
                                .connection(CONNECTION)
                                .path(0)
                                .psn(PSN_BASE)
                                .cumulativePsn(PSN_BASE)
                                .echoedTimestamp(1000)
                                .sackBits(0)
                                .build())
                .never("NACK")
                .expectCounter("rx_invalid_field", 1);
    }

    private static Scenario eightPaths() {
        final byte[] payload = pattern(64, 28);
        final Scenario scenario = target(new Scenario(
                "3.1.3/write-on-eighth-path",
                "valid",
                "Ensure that the DUT, claiming multipath, accepts a connection of 8 paths and places a WRITE sent on"
                        + " path 7, acknowledging it on path 7",
                "3.1.3"));
        scenario.setup.put("paths", 8);
        scenario.profiles.add("multipath");
        return scenario.send(7, write(0, 0, 0, 64, payload).path(7).build())
                .expectAck(7, 1, 1)
                .expectRegion("target", 0, hex(payload));
    }

    private static Scenario sixteenStreams() {
        final byte[] payload = pattern(64, 29);
        final Scenario scenario = target(new Scenario(
                        "3.1.5/send-on-sixteenth-stream",
                        "valid",
                        "Ensure that the DUT, claiming streams, accepts a connection of 16 streams and places a SEND"
                                + " on stream 15 into the receive posted on stream 15",
                        "3.1.5"))
                .receive(15, "target", 0, 256, 1);
        scenario.setup.put("streams", 16);
        scenario.profiles.add("streams");
        return scenario.send(0, send(0, 0, 0, payload).stream(15).build())
                .expectAck(0, 1, 1)
                .expectCompletion(1, "SUCCESS", "RECEIVE")
                .noOtherCompletions()
                .expectRegion("target", 0, hex(payload));
    }

    private static Scenario probeConsumesNoPsn() {
        final byte[] first = pattern(64, 30);
        final byte[] second = pattern(64, 31);
        final Scenario scenario = target(new Scenario(
                        "5.5.1/probe-consumes-no-psn",
                        "valid",
                        "Ensure that the DUT answers a PROBE on PSN 1 with an ACK without consuming the PSN: the"
                                + " WRITE that follows on PSN 1 is placed, and no ACK goes past PSN 2",
                        "5.5.1"))
                .send(0, write(0, 0, 0, 64, first).build())
                .send(
                        0,
                        PacketBuilder.probe()
                                .connection(CONNECTION)
                                .path(0)
                                .psn(PSN_BASE + 1)
                                .transmitTimestamp(0x0123_4567L)
                                .ackRequest()
                                .build())
                .send(
                        0,
                        write(1, 1, 0, 64, second)
                                .remoteAddress(TARGET_ADDRESS + 64)
                                .build());
        // Clause 5.5.1 binds every receiver: no multipath needed to answer a PROBE.
        return scenario.expectAck(0, 2, 1).neverAck(0, 3).expectRegion("target", 0, hex(first) + hex(second));
    }

    private static Scenario reservedFieldsIgnored() {
        final byte[] payload = pattern(64, 16);
        return target(new Scenario(
                        "5.1.1/reserved-fields-ignored",
                        "valid",
                        "Ensure that the DUT ignores non-zero reserved fields on receipt: a WRITE with reserved byte 9,"
                                + " reserved bytes 10 and 11 and every reserved flag bit set is placed and acknowledged",
                        "5.1.1"))
                .send(
                        0,
                        write(0, 0, 0, 64, payload)
                                .reserved1(0xA5)
                                .reserved2(0x5AA5)
                                .addFlags(0xFFFC)
                                .build())
                .expectAck(0, 1, 1)
                .never("NACK")
                .expectRegion("target", 0, hex(payload));
    }

    private static Scenario readRequestWithPayloadLength() {
        final Scenario scenario = new Scenario(
                        "5.2.5/read-request-with-payload-length",
                        "invalid",
                        "Ensure that the DUT silently drops and counts as an invalid field a READ_REQUEST whose payload"
                                + " length field is 16, and answers no READ_RESPONSE",
                        "5.2.5",
                        "5.6.5")
                .region("target", TARGET_LENGTH, 0x5A, "LOCAL_WRITE", "REMOTE_WRITE", "REMOTE_READ")
                .send(
                        0,
                        PacketBuilder.readRequest().connection(CONNECTION).path(0).psn(PSN_BASE).stream(0)
                                .msn(0)
                                .messageLength(64)
                                .messageOffset(0)
                                .remoteAddress(TARGET_ADDRESS)
                                .remoteKey(TARGET_KEY)
                                .sinkHandle(0x31)
                                .transmitTimestamp(1000)
                                .payloadLengthField(16)
                                .ackRequest()
                                .build())
                .never("READ_RESPONSE")
                .never("ACK")
                .never("NACK")
                .expectCounter("rx_invalid_field", 1);
        scenario.profiles.add("read");
        return scenario;
    }

    private static byte[] segment(final byte[] message, final int index, final long psn) {
        return write(psn, 0, index * SEGMENT, message.length, segmentOf(message, index))
                .build();
    }

    private static List<int[]> permutations(final int[] items) {
        final List<int[]> out = new ArrayList<>();
        permute(items, 0, out);
        return out;
    }

    private static void permute(final int[] items, final int from, final List<int[]> out) {
        if (from == items.length) {
            out.add(items.clone());
            return;
        }
        for (int i = from; i < items.length; i++) {
            swap(items, from, i);
            permute(items, from + 1, out);
            swap(items, from, i);
        }
    }

    private static void swap(final int[] items, final int a, final int b) {
        final int t = items[a];
        items[a] = items[b];
        items[b] = t;
    }

    static String sha256(final byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (final NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
