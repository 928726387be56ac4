package org.mrconf.cases.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.DutTraffic;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.DutCompletion;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;

/**
 * READ with the DUT as responder and as requester (clauses 7.4.1, 7.4.2): a multi-packet READ is answered with
 * READ_RESPONSEs that carry exactly the requested bytes at the MTU, on the DUT's own paths and PSNs, and a lost
 * response is recovered; READ_RESPONSEs the tester sends in any order are placed on arrival, and the READ completes
 * only when every byte has arrived, not when the last segment or as many bytes (with a repeat) have.
 */
@ExtendWith(DutExtension.class)
@DisplayName("READ")
class ReadCase {
    @Test
    @DisplayName("a multi-packet READ is answered with exactly the requested bytes, segmented at the MTU, reliably")
    @Verifies("7.4.1")
    @Verifies("5.2.6")
    void responderSendsExactlyTheBytesReliably(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 4, 1)) {
            final PeerConnection connection = testbed.connection();
            final int segment = connection.maxPayload(Opcode.READ_RESPONSE);
            final long readAddress = Testbed.BASE + 0x4_0000 + 3;
            final byte[] data = CaseSteps.stage(testbed, readAddress, 5 * segment + segment / 2, 50);
            final int mark = testbed.peer().mark();
            final long msn = connection.nextMsn(0);

            final int count = CaseSteps.segments(data.length, segment);
            final PacketMatcher responses = PacketMatcher.expect()
                    .data()
                    .opcode(Opcode.READ_RESPONSE)
                    .connection(Testbed.TESTER_CONNECTION)
                    .sinkHandle(0x1234);
            // Reliable like any data packet: the first response to arrive is held back (never acknowledged until it
            // is resent), every other one is acknowledged as it comes, so that a responder whose windows hold one
            // or two packets (section 10: a tester must not assume more than one in flight) still sends them all.
            final AtomicReference<DataPacket> held = new AtomicReference<>();
            final Consumer<ReceivedPacket> acknowledger = packet -> {
                if (!responses.test(packet)) {
                    return;
                }
                final DataPacket response = packet.data().orElseThrow();
                if (held.compareAndSet(null, response)) {
                    return; // left unacknowledged: the DUT must recover it
                }
                connection.onReceived(packet);
                try {
                    testbed.peer().send(connection.ackFor(response.header().pathId(), response.transmitTimestamp()));
                } catch (final IOException e) {
                    throw new UncheckedIOException(e);
                }
            };
            testbed.peer().recorder().addListener(acknowledger);
            try {
                connection.readRequest(0, readAddress, testbed.key(), data.length, 0x1234, 1);
                final List<DataPacket> sent =
                        testbed
                                .peer()
                                .recorder()
                                .awaitCount(mark, responses.firstTransmission(), count, Testbed.WAIT)
                                .stream()
                                .map(p -> p.data().orElseThrow())
                                .toList();
                final byte[] assembled = new byte[data.length];
                final Map<Integer, Long> nextPsn = new HashMap<>();
                long covered = 0;
                for (final DataPacket response : sent.stream()
                        .sorted(Comparator.comparingLong(DataPacket::messageOffset))
                        .toList()) {
                    assertThat(response.messageOffset())
                            .as("7.4.1: responses tile the read")
                            .isEqualTo(covered);
                    final boolean last = response.messageOffset() + response.payloadLength() == data.length;
                    assertThat(response.payloadLength())
                            .as("7.4.1: segmented at the MTU")
                            .isEqualTo(last ? data.length - (count - 1) * segment : segment);
                    assertThat(response.streamId())
                            .as("5.2.6: the request's stream")
                            .isZero();
                    assertThat(response.messageSequenceNumber())
                            .as("5.2.6: the request's MSN")
                            .isEqualTo(msn);
                    assertThat(response.messageLength())
                            .as("5.2.6: the request's length")
                            .isEqualTo(data.length);
                    System.arraycopy(
                            response.payload(), 0, assembled, (int) response.messageOffset(), response.payloadLength());
                    covered += response.payloadLength();
                }
                assertThat(assembled).as("7.4.1: exactly the requested bytes").isEqualTo(data);
                for (final DataPacket response : sent) {
                    final int path = response.header().pathId();
                    final long expected = nextPsn.getOrDefault(path, 0L);
                    assertThat(response.header().psn())
                            .as("7.4.1: responses take the PSNs of the DUT's path %d in turn", path)
                            .isEqualTo(expected);
                    nextPsn.put(path, Psn.add(expected, 1));
                }

                final DataPacket lost = held.get();
                final DataPacket resent = testbed.peer()
                        .await(
                                mark,
                                responses
                                        .retransmission()
                                        .path(lost.header().pathId())
                                        .messageOffset(lost.messageOffset()),
                                Testbed.WAIT)
                        .data()
                        .orElseThrow();
                assertThat(resent.header().psn())
                        .as("7.4.1: the unacknowledged response resent")
                        .isEqualTo(lost.header().psn());
                assertThat(resent.payload()).as("7.4.1: with the same bytes").isEqualTo(lost.payload());
            } finally {
                testbed.peer().recorder().removeListener(acknowledger);
            }
        }
    }

    @Test
    @DisplayName("READ_RESPONSEs are placed on arrival in any order; the READ completes only when every byte arrived")
    @Verifies("7.4.2")
    @Verifies("7.1.1")
    @Verifies("7.5.4")
    void requesterPlacesOnArrivalAndCompletesOnAllBytes(final Testbed testbed) throws Exception {
        final PeerConnection connection = testbed.connection();
        final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());
        final int segment = connection.maxPayload(Opcode.READ_RESPONSE);
        final byte[] data = Testbed.randomBytes(4 * segment - 9, 51);
        final long sink = Testbed.BASE + 0x6_0000 + 1;
        final DataPacket request = postReadAndAcknowledgeItsRequest(testbed, 700, sink, data.length);

        // The last segment first, then a middle one twice (the copy under a new PSN), then the other middle one.
        respond(testbed, request, data, 3, 1);
        CaseSteps.awaitBytes(testbed, testbed.key(), sink + 3L * segment, slice(data, 3, segment), "7.4.2: last");
        respond(testbed, request, data, 1, 0);
        respond(testbed, request, data, 1, 1);
        respond(testbed, request, data, 2, 0);
        CaseSteps.awaitBytes(testbed, testbed.key(), sink + segment, slice(data, 1, segment), "7.4.2: offset 1");
        CaseSteps.awaitBytes(testbed, testbed.key(), sink + 2L * segment, slice(data, 2, segment), "7.4.2: offset 2");
        assertThat(completions.drain(Testbed.QUIET))
                .as("7.4.2: no completion while the first segment is missing, whatever else arrived")
                .isEmpty();
        respond(testbed, request, data, 0, 1);
        final DutCompletion completion = completions.awaitWrId(700, "7.4.2: the READ completes");
        assertThat(completion.status()).isEqualTo(CompletionStatus.SUCCESS);
        assertThat(completion.length()).isEqualTo(data.length);
        CaseSteps.assertBytes(testbed, testbed.key(), sink, data, "7.4.2: the sink holds the read");
        CaseSteps.assertBytes(testbed, testbed.key(), sink + data.length, CaseSteps.zeros(64), "7.4.2: and no more");
    }

    @Test
    @DisplayName("a zero-length READ completes when its one empty READ_RESPONSE arrives, not before")
    @Verifies("7.4.2")
    void zeroLengthReadCompletesOnItsEmptyResponse(final Testbed testbed) throws Exception {
        final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());
        final DataPacket request = postReadAndAcknowledgeItsRequest(testbed, 701, Testbed.BASE + 0x7_0000, 0);
        assertThat(completions.drain(Testbed.QUIET))
                .as("7.4.2: a zero-length READ whose READ_REQUEST was acknowledged does not complete before its"
                        + " READ_RESPONSE arrives")
                .isEmpty();
        respond(testbed, request, new byte[0], 0, 0);
        final DutCompletion completion = completions.awaitWrId(701, "7.4.2: the zero-length READ completes");
        assertThat(completion.status())
                .as("7.4.2: once its READ_RESPONSE of payload length 0 arrived")
                .isEqualTo(CompletionStatus.SUCCESS);
        assertThat(completion.length()).isZero();
    }

    /**
     * Has the DUT post a READ of {@code length} bytes into {@code sink} (work request {@code wrId}), waits for its
     * READ_REQUEST and acknowledges it; returns the READ_REQUEST.
     */
    private static DataPacket postReadAndAcknowledgeItsRequest(
            final Testbed testbed, final long wrId, final long sink, final int length) throws Exception {
        final DataPacket request = DutTraffic.postReadAndAcknowledgeItsRequest(
                testbed, CaseSteps.request(testbed, 0, wrId, sink, length), 0x00AA_0000L, 0x42);
        assertThat(request.messageLength())
                .as("7.4.2: the READ_REQUEST asks for the READ's length")
                .isEqualTo(length);
        return request;
    }

    private static void respond(
            final Testbed testbed, final DataPacket request, final byte[] data, final int index, final int path)
            throws Exception {
        final PeerConnection connection = testbed.connection();
        final int segment = connection.maxPayload(Opcode.READ_RESPONSE);
        final PacketBuilder response = CaseSteps.readResponseTo(connection, request, data, segment, index, path)
                .ackRequest();
        final int mark = testbed.peer().mark();
        final PeerConnection.Segment sent = connection.sendNew(response, path);
        testbed.peer().await(mark, PacketMatcher.expect().ack().path(path).covers(sent.psn()), Testbed.WAIT);
    }

    private static byte[] slice(final byte[] data, final int index, final int segment) {
        return java.util.Arrays.copyOfRange(data, index * segment, Math.min(data.length, (index + 1) * segment));
    }
}
