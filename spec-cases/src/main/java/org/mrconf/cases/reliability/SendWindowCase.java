package org.mrconf.cases.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.EnumSet;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.RegionAccess;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;

/**
 * The send window at the DUT as sender (clause 6.1.3): with the path's first PSN missing and every later one
 * acknowledged in the SACK bitmap at once, the DUT may have at most 256 PSNs outstanding from the cumulative PSN, so
 * cumulative + 255 is the last new PSN it may send; when the cumulative PSN moves, the window moves with it. The
 * initial PSN sits just below the wrap, so the window's edge lies beyond it.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Send window")
class SendWindowCase {
    private static final long START = 0xFFFF_FF00L + 7;
    private static final long REMOTE_ADDRESS = 0x0100_0000L;

    /** Packets acknowledged at once that grow a first window of one packet past two (1/W each, 10.1.1). */
    private static final int GROWTH = 4;

    @Test
    @DisplayName("no new PSN at or beyond cumulative + 256 on a path, and the window follows the cumulative PSN")
    @Verifies("6.1.3")
    @Verifies("6.1.2")
    void neverMoreThan256Outstanding(final DeviceUnderTest dut) throws Exception {
        // With the first PSN held, only a window of two packets or more lets the DUT go on. A declared first window of
        // one packet (section 10) is grown first: a congestion-profile sender adds 1/W per packet acknowledged (10.1.1,
        // 10.1.2), so GROWTH packets acknowledged as they come suffice; the testbed starts that many PSNs earlier, so
        // that the held PSN is still START. A device without congestion keeps its window: INCONCLUSIVE.
        final DeviceDeclaration.Congestion declared = dut.profile().parameters().congestion();
        final boolean oneInFlight = (declared.initialPathWindow() == 1 || declared.initialConnectionWindow() == 1);
        if (oneInFlight && !dut.profile().claims(Profile.CONGESTION)) {
            throw org.mrconf.cases.NotApplicable.because("the device's configuration: the declared first window of one"
                    + " packet lets the DUT send nothing while the tester holds its first PSN, and a device without the"
                    + " congestion profile need not grow it; a first window of two packets would exercise it");
        }
        final int growth = oneInFlight ? GROWTH : 0;
        try (Testbed testbed = Testbed.open(dut, 1, 1, Psn.add(START, -growth), 0)) {
            final int payload = testbed.connection().maxPayload(Opcode.WRITE);
            if (growth > 0) {
                testbed.connection().autoAck(true);
                try {
                    testbed.control()
                            .postWrite(
                                    new WorkRequest(
                                            Testbed.DUT_CONNECTION,
                                            0,
                                            1299,
                                            testbed.key(),
                                            Testbed.BASE,
                                            (long) growth * payload),
                                    REMOTE_ADDRESS,
                                    0x33);
                    testbed.awaitCompletion(1299);
                } finally {
                    testbed.connection().autoAck(false);
                }
                testbed.peer().recorder().awaitQuiet(java.time.Duration.ofMillis(20), Testbed.WAIT);
            }
            final int packets = 300;
            final long source = Testbed.BASE + 8L * Testbed.REGION;
            final long sourceKey = testbed.control()
                    .registerRegion(source, (long) packets * payload, EnumSet.of(RegionAccess.LOCAL_WRITE));
            final TreeSet<Long> received = new TreeSet<>();
            // Acknowledge every new PSN but the first in the bitmap, from the recorder's thread, at once.
            final Consumer<ReceivedPacket> sack = packet -> {
                final DataPacket data = packet.data().orElse(null);
                if (data == null
                        || data.opcode() != Opcode.WRITE
                        || data.header().psn() == START) {
                    return;
                }
                final long offset = Psn.distance(START, data.header().psn());
                if (offset >= 256) {
                    return; // beyond the bitmap; the check below reports it
                }
                synchronized (received) {
                    received.add(data.header().psn());
                    try {
                        testbed.peer()
                                .send(CaseSteps.ack(
                                        0,
                                        START,
                                        data.transmitTimestamp(),
                                        received.stream()
                                                .mapToLong(Long::longValue)
                                                .toArray()));
                    } catch (final IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            };
            testbed.peer().recorder().addListener(sack);
            final int mark = testbed.peer().mark();
            testbed.control()
                    .postWrite(
                            new WorkRequest(
                                    Testbed.DUT_CONNECTION, 0, 1300, sourceKey, source, (long) packets * payload),
                            REMOTE_ADDRESS,
                            0x33);
            final PacketMatcher fresh = PacketMatcher.expect()
                    .data()
                    .opcode(Opcode.WRITE)
                    .connection(Testbed.TESTER_CONNECTION)
                    .firstTransmission();
            final PacketMatcher beyond = fresh.where(
                    "PSN at or beyond the first PSN + 256",
                    DataPacket.class,
                    p -> Psn.distance(START, p.header().psn()) >= 256);
            try {
                testbed.peer().await(mark, fresh.psn(Psn.add(START, 255)), Testbed.WAIT);
            } catch (final AssertionError e) {
                testbed.peer().assertNone(mark, beyond, java.time.Duration.ZERO);
                // A sender may keep fewer packets in flight than its windows allow (section 10): its choice, not
                // the tester's blindness, left the edge unreached.
                throw org.mrconf.cases.NotApplicable.because("the device's configuration: the DUT did not fill its"
                        + " 256-PSN window (its congestion window may be smaller, or it keeps fewer packets in flight,"
                        + " which section 10 allows), so the window's edge was not reached");
            }
            testbed.peer().assertNone(mark, beyond, Testbed.QUIET);
            testbed.peer().recorder().removeListener(sack);

            // The cumulative PSN moves by 256: the next 256 PSNs may go, and the DUT sends the next one.
            final int moved = testbed.peer().mark();
            testbed.peer().send(CaseSteps.ack(0, Psn.add(START, 256), 0));
            final ReceivedPacket next = testbed.peer().await(moved, fresh.psn(Psn.add(START, 256)), Testbed.WAIT);
            assertThat(next.data().orElseThrow().header().pathId()).isZero();
        }
    }
}
