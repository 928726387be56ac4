package org.mrconf.cases.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.PacketFlags;

/**
 * The DUT as a sender under loss, MetaRoCE's central claim: when an ACK of a path shows a gap, the DUT
 * resends exactly the missing PSN, on the same path, flagged as a retransmission, with the original's
 * fields and payload, and nothing the ACK reported received; and it completes the WRITE only once every
 * PSN is acknowledged.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Selective retransmission")
class SelectiveRetransmissionCase {
    private static final long REMOTE_ADDRESS = 0x00AB_0000L;
    private static final long REMOTE_KEY = 0x77;

    @Test
    @DisplayName("a gap in a path's SACK bitmap makes the DUT resend exactly the missing packet on that path")
    @Verifies("6.3.1")
    @Verifies("6.4.1")
    @Verifies("6.4.2")
    @Verifies("7.5.4")
    @Verifies("4.1.9")
    void resendsExactlyTheMissingPacket(final Testbed testbed) throws Exception {
        final int payload = testbed.connection().maxPayload(Opcode.WRITE);
        final int length = 4 * payload + payload / 2;
        testbed.control().writeRegion(testbed.key(), Testbed.BASE, Testbed.randomBytes(length, 11));
        final int mark = testbed.peer().mark();

        testbed.control()
                .postWrite(
                        new WorkRequest(Testbed.DUT_CONNECTION, 0, 7, testbed.key(), Testbed.BASE, length),
                        REMOTE_ADDRESS,
                        REMOTE_KEY);

        final List<DataPacket> sent;
        try {
            sent = testbed.peer().recorder().awaitCount(mark, writes().firstTransmission(), 5, Testbed.WAIT).stream()
                    .map(p -> p.data().orElseThrow())
                    .toList();
        } catch (final AssertionError e) {
            if (!testbed.peer()
                    .recorder()
                    .matching(mark, writes().retransmission())
                    .isEmpty()) {
                // The DUT's own timer fired first, collapsing its windows (10.1.3) before every packet went out
                // once: a timer this case does not control, so it cannot judge, it must not fail.
                throw Inconclusive.because("the DUT's retransmission timer expired before it had sent every packet"
                        + " of the WRITE once; the case needs all five first transmissions: " + e.getMessage());
            }
            throw e;
        }
        for (final DataPacket packet : sent) {
            final boolean last = packet.messageOffset() + packet.payloadLength() == length;
            assertThat(packet.payloadLength())
                    .as("4.1.9: every packet but the last is full")
                    .isEqualTo(last ? length - 4 * payload : payload);
        }
        final Map<Integer, List<DataPacket>> byPath =
                sent.stream().collect(Collectors.groupingBy(p -> p.header().pathId()));
        final List<DataPacket> lossy = byPath.values().stream()
                .filter(list -> list.size() >= 2)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no path carried two packets: " + byPath.keySet()));
        final List<DataPacket> onPath = lossy.stream()
                .sorted(Comparator.comparingLong(p -> p.header().psn()))
                .toList();
        final DataPacket missing = onPath.get(0);
        final int path = missing.header().pathId();
        final int[] receivedBits = new int[onPath.size() - 1];
        for (int i = 1; i < onPath.size(); i++) {
            receivedBits[i - 1] =
                    (int) ((onPath.get(i).header().psn() - missing.header().psn()) & 0xFFFF_FFFFL);
        }
        final int gapMark = testbed.peer().mark();

        testbed.peer()
                .send(ack(path, missing.header().psn(), missing.transmitTimestamp())
                        .sackBits(receivedBits));

        final DataPacket resent = testbed.peer()
                // PSNs are per path: match the path too, or a timeout resend of the same PSN number on another
                // path would be taken for this one.
                .await(
                        gapMark,
                        writes().retransmission()
                                .path(path)
                                .psn(missing.header().psn()),
                        Testbed.WAIT)
                .data()
                .orElseThrow();
        assertThat(resent.header().pathId()).as("6.4.2: same path").isEqualTo(path);
        assertThat(resent.header().flags() & PacketFlags.RETRANSMISSION).isNotZero();
        assertThat(resent.messageOffset()).isEqualTo(missing.messageOffset());
        assertThat(resent.messageSequenceNumber()).isEqualTo(missing.messageSequenceNumber());
        assertThat(resent.remoteAddress()).isEqualTo(missing.remoteAddress());
        assertThat(resent.payload()).isEqualTo(missing.payload());
        // Once the gap-driven resend is seen, the DUT has processed the ACK: from then on it must not resend
        // what the ACK reported received. (Resends already in flight from an earlier timeout are allowed.)
        final java.util.Set<Long> reported = onPath.subList(1, onPath.size()).stream()
                .map(p -> p.header().psn())
                .collect(Collectors.toSet());
        final int afterResend = testbed.peer().mark();
        testbed.peer()
                .assertNone(
                        afterResend,
                        writes().retransmission()
                                .path(path)
                                .where(
                                        "a PSN the ACK reported received",
                                        DataPacket.class,
                                        p -> reported.contains(p.header().psn())),
                        Testbed.QUIET);
        assertThat(testbed.control().pollCompletions(4, Duration.ZERO))
                .as("7.5.4: not complete while a PSN is unacknowledged")
                .isEmpty();

        for (final Map.Entry<Integer, List<DataPacket>> entry : byPath.entrySet()) {
            final long highest = entry.getValue().stream()
                    .mapToLong(p -> p.header().psn())
                    .max()
                    .orElseThrow();
            testbed.peer().send(ack(entry.getKey(), highest + 1, resent.transmitTimestamp()));
        }
        final DutCompletion completion = testbed.awaitCompletion(7);
        assertThat(completion.status()).isEqualTo(CompletionStatus.SUCCESS);
        assertThat(completion.length()).isEqualTo(length);
    }

    private static PacketMatcher writes() {
        return PacketMatcher.expect()
                .data()
                .opcode(Opcode.WRITE)
                .connection(Testbed.TESTER_CONNECTION)
                .remoteAddress(REMOTE_ADDRESS);
    }

    private static PacketBuilder ack(final int path, final long cumulativePsn, final long echoedTimestamp) {
        return PacketBuilder.ack()
                .connection(Testbed.DUT_CONNECTION)
                .path(path)
                .cumulativePsn(cumulativePsn)
                .echoedTimestamp(echoedTimestamp);
    }
}
