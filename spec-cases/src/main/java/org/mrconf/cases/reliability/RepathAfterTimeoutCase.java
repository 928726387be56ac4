package org.mrconf.cases.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;

/**
 * The DUT sends a WRITE sprayed over {@value #PATHS} paths and the tester acknowledges nothing, so every path's
 * timer expires again and again. On every expiry the path must take a new entropy value before it retransmits
 * (clause 6.6.4), and the entropy is the UDP source port on the wire (clause 4.1.4): so every transmission of a PSN
 * must leave from another source port than the transmission before it, whatever the device does inside (a pool of
 * sockets, a hash). Many paths times several expiries make a device that repeats a port now and then, such as one
 * that maps entropy onto a few sockets, fail with near certainty; a device that never repeats always passes.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Re-pathing after a timeout")
class RepathAfterTimeoutCase {
    private static final int PATHS = 8;
    private static final int EXPIRIES = 6;
    private static final long REMOTE_ADDRESS = 0x00EF_0000L;

    @Test
    @DisplayName("every retransmission after a timeout leaves from a different UDP source port than the one before")
    @Verifies("6.6.4")
    @Verifies("4.1.4")
    void everyTimeoutChangesTheSourcePort(final DeviceUnderTest dut) throws Exception {
        if (!dut.profile().claims(Profile.MULTIPATH)) {
            throw org.mrconf.cases.NotApplicable.because("the device does not claim the multipath profile");
        }
        try (Testbed testbed = Testbed.open(dut, PATHS, 1)) {
            final int payload = testbed.connection().maxPayload(Opcode.WRITE);
            final int length = PATHS * payload;
            testbed.control().writeRegion(testbed.key(), Testbed.BASE, Testbed.randomBytes(length, 61));
            final int mark = testbed.peer().mark();
            testbed.control()
                    .postWrite(
                            new WorkRequest(Testbed.DUT_CONNECTION, 0, 41, testbed.key(), Testbed.BASE, length),
                            REMOTE_ADDRESS,
                            0x55);

            final Duration watch = watchTime(testbed.profile().parameters().timers());
            Thread.sleep(watch.toMillis());

            final Map<Long, List<Integer>> portsByPathPsn = new HashMap<>();
            for (final ReceivedPacket packet : testbed.peer().recorder().matching(mark, writes())) {
                final DataPacket data = packet.data().orElseThrow();
                final long key =
                        ((long) data.header().pathId() << 32) | data.header().psn();
                portsByPathPsn
                        .computeIfAbsent(key, k -> new ArrayList<>())
                        .add(packet.captured().sourcePort());
            }
            assertThat(portsByPathPsn).as("the WRITE's packets").isNotEmpty();
            int repeats = 0;
            for (final List<Integer> ports : portsByPathPsn.values()) {
                repeats += ports.size() - 1;
            }
            if (repeats == 0) {
                throw Inconclusive.because("no retransmission arrived within " + watch
                        + " of silence; the declared timers cannot be checked here (clause 6.6.2 is for its own case)");
            }
            for (final Map.Entry<Long, List<Integer>> entry : portsByPathPsn.entrySet()) {
                final List<Integer> ports = entry.getValue();
                for (int i = 1; i < ports.size(); i++) {
                    assertThat(ports.get(i))
                            .as(
                                    "6.6.4: transmission %d of path %d PSN %d leaves from the source port of the one"
                                            + " before (all ports of this PSN: %s)",
                                    i + 1, entry.getKey() >>> 32, entry.getKey() & 0xFFFF_FFFFL, ports)
                            .isNotEqualTo(ports.get(i - 1));
                }
            }
        }
    }

    /**
     * Long enough for {@value #EXPIRIES} expiries of a timer that starts at the declared initial RTO and doubles up
     * to the maximum, each late by up to the declared tolerance; short of the connection timeout, after which the
     * DUT stops retransmitting (clause 6.7.3).
     */
    private static Duration watchTime(final DeviceDeclaration.Timers timers) {
        long total = 0;
        long rto = timers.initialRto().toNanos();
        for (int i = 0; i < EXPIRIES; i++) {
            total += Math.min(rto, timers.maxRto().toNanos())
                    + timers.tolerance().toNanos();
            rto *= 2;
        }
        final long limit = timers.connectionTimeout().toNanos() * 3 / 4;
        return Duration.ofNanos(Math.max(1, Math.min(total, limit)));
    }

    private static PacketMatcher writes() {
        return PacketMatcher.expect()
                .data()
                .opcode(Opcode.WRITE)
                .connection(Testbed.TESTER_CONNECTION)
                .remoteAddress(REMOTE_ADDRESS);
    }
}
