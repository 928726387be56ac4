package org.mrconf.cases.encapsulation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;

/**
 * Clause 4.2.2 with work at every stage when the connection is destroyed: a READ whose request the tester acknowledged
 * and whose data it never sends (it waits for its response), a WRITE longer than any window, so partly sent (at least
 * its first packet is out, the rest cannot all be, clause 6.1.3), a WRITE posted behind it on the same stream that has
 * not started, and a receive into which the tester placed the first half of a SEND. Every one of them must complete,
 * once, with a flush error; none may be lost silently because it was in another stage than "sent and unacknowledged".
 *
 * <p>Only stages the device reached are required: a READ only where the device claims the read profile. A device
 * that failed the connection before the destroy (its connection timeout, clause 6.7.3, while the tester withheld ACKs)
 * makes the case inconclusive.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Connection teardown with work in progress")
class TeardownInProgressCase {
    private static final long READ_WR = 601;
    private static final long LONG_WR = 602;
    private static final long QUEUED_WR = 603;
    private static final long RECEIVE_WR = 604;
    private static final long REMOTE_KEY = 0x79;

    @Test
    @DisplayName("destroying a connection flushes, once each, a READ waiting for its data, a WRITE partly sent, a WRITE"
            + " not yet started and a receive half filled by a SEND")
    @Verifies("4.2.2")
    void everyWorkRequestInProgressIsFlushed(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            final PeerConnection connection = testbed.connection();
            final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());
            final Map<Long, String> expected = new LinkedHashMap<>();
            final int mark = testbed.peer().mark();
            final long began = System.nanoTime();

            // A READ whose request is acknowledged: nothing of it is outstanding on the wire, yet it waits for data.
            if (testbed.profile().claims(Profile.READ)) {
                testbed.control()
                        .postRead(
                                new WorkRequest(
                                        Testbed.DUT_CONNECTION, 0, READ_WR, testbed.key(), Testbed.BASE + 0x2000, 64),
                                0x00D1_0000L,
                                REMOTE_KEY);
                final ReceivedPacket request = testbed.peer()
                        .await(mark, PacketMatcher.expect().data().opcode(Opcode.READ_REQUEST), Testbed.WAIT);
                final DataPacket data = request.data().orElseThrow();
                connection.onReceived(request);
                testbed.peer().send(connection.ackFor(data.header().pathId(), data.transmitTimestamp()));
                expected.put(READ_WR, "a READ whose request was acknowledged, waiting for its data");
            }

            // A receive, and the first half of a two-packet SEND placed into it.
            final int payload = connection.maxPayload(Opcode.SEND);
            testbed.control()
                    .postReceive(new WorkRequest(
                            Testbed.DUT_CONNECTION, 0, RECEIVE_WR, testbed.key(), Testbed.BASE + 0x8000, 2 * payload));
            final int receiveMark = testbed.peer().mark();
            connection.sendNew(
                    connection.packet(Opcode.SEND, 0).stream(0)
                            .msn(connection.takeMsn(0))
                            .rsn(connection.takeRsn(0))
                            .messageLength(2L * payload)
                            .messageOffset(0)
                            .payload(Testbed.randomBytes(payload, 604))
                            .transmitTimestamp(604)
                            .ackRequest(),
                    0);
            testbed.peer()
                    .await(receiveMark, PacketMatcher.expect().ack().covers(connection.nextPsn(0) - 1), Testbed.WAIT);
            expected.put(RECEIVE_WR, "a receive half filled by a SEND");

            // A WRITE of more packets than any window holds, then one behind it on the same stream.
            final int writeMark = testbed.peer().mark();
            testbed.control()
                    .postWrite(
                            new WorkRequest(
                                    Testbed.DUT_CONNECTION, 0, LONG_WR, testbed.key(), Testbed.BASE, Testbed.REGION),
                            0x00D2_0000L,
                            REMOTE_KEY);
            testbed.control()
                    .postWrite(
                            new WorkRequest(Testbed.DUT_CONNECTION, 0, QUEUED_WR, testbed.key(), Testbed.BASE, 64),
                            0x00D3_0000L,
                            REMOTE_KEY);
            final PacketMatcher writes = PacketMatcher.expect().data().opcode(Opcode.WRITE);
            testbed.peer().await(writeMark, writes, Testbed.WAIT);
            final List<ReceivedPacket> sent = TesterMessages.awaitStalled(testbed, writeMark, writes);
            expected.put(LONG_WR, "a WRITE partly sent (" + sent.size() + " packets on the wire, none acknowledged)");
            expected.put(QUEUED_WR, "a WRITE posted behind it on the same stream");

            final List<DutCompletion> early = completions.drain(Duration.ZERO);
            if (!early.isEmpty()) {
                final Duration since = Duration.ofNanos(System.nanoTime() - began);
                if (early.stream().anyMatch(c -> c.status() != CompletionStatus.SUCCESS)) {
                    throw Inconclusive.because(String.format(
                            "the DUT completed %s before the destroy, %d ms into the case: it failed the connection"
                                    + " itself (its connection timeout %d ms, clause 6.7.3, while the tester withheld"
                                    + " ACKs), so the destroy found nothing in progress",
                            early,
                            since.toMillis(),
                            testbed.profile()
                                    .parameters()
                                    .timers()
                                    .connectionTimeout()
                                    .toMillis()));
                }
                throw new AssertionError("4.2.2 set-up: work requests completed successfully although the tester"
                        + " acknowledged none of their data and sent no READ response: " + early);
            }

            testbed.control().destroyConnection(Testbed.DUT_CONNECTION);
            try {
                final long deadline = System.nanoTime() + Testbed.WAIT.toNanos();
                while (!seenAll(completions.all(), expected) && System.nanoTime() - deadline < 0) {
                    completions.drain(Duration.ofMillis(50));
                }
                // Then a while longer: a work request completed twice shows here.
                final List<DutCompletion> all = completions.drain(testbed.quiet());
                final Map<Long, List<CompletionStatus>> byWr = new TreeMap<>();
                for (final DutCompletion completion : all) {
                    byWr.computeIfAbsent(completion.wrId(), id -> new java.util.ArrayList<>())
                            .add(completion.status());
                }
                for (final Map.Entry<Long, String> work : expected.entrySet()) {
                    assertThat(byWr.getOrDefault(work.getKey(), List.of()))
                            .as(
                                    "4.2.2: work request %d, %s when the connection was destroyed, completes once,"
                                            + " with a flush error (all completions: %s)",
                                    work.getKey(), work.getValue(), all)
                            .containsExactly(CompletionStatus.FLUSHED);
                }
                assertThat(byWr.keySet())
                        .as("4.2.2: completions only of the connection's work requests (all completions: %s)", all)
                        .isSubsetOf(expected.keySet());
            } finally {
                // The testbed destroys its connection when the case ends: give it one to destroy.
                testbed.control().createConnection(connection.spec());
            }
        }
    }

    private static boolean seenAll(final List<DutCompletion> seen, final Map<Long, String> expected) {
        return seen.stream()
                .map(DutCompletion::wrId)
                .collect(java.util.stream.Collectors.toSet())
                .containsAll(expected.keySet());
    }
}
