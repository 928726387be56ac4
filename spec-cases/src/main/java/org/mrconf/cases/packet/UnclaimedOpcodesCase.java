package org.mrconf.cases.packet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.Applicability;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Kind;
import org.mrconf.cases.NotApplicable;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DutCounters;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.NackPacket;
import org.mrconf.wire.Opcode;

/**
 * Opcodes of profiles the device does not claim (spec clause 5.6.7): a READ_REQUEST to a device without the read
 * profile, and a WRITE_WITH_IMMEDIATE to one without the immediate profile, are refused with NACK INVALID_REQUEST,
 * counted under {@code reject_invalid_request}, and change nothing: no READ_RESPONSE, no byte placed, no completion.
 * A device that claims the profile is not judged here (its own cases judge how it handles the opcode).
 */
@ExtendWith(DutExtension.class)
@DisplayName("Opcodes of profiles not claimed")
class UnclaimedOpcodesCase {
    private static final int LENGTH = 64;
    private static final long TARGET = Testbed.BASE + 0x3000;

    @Test
    @DisplayName("a READ_REQUEST to a device without the read profile gets NACK INVALID_REQUEST and no READ_RESPONSE")
    @Verifies("5.6.7")
    @Kind(Kind.Purpose.INVALID)
    void readRequestIsRefused(final Testbed testbed) throws Exception {
        if (testbed.profile().claims(Profile.READ)) {
            throw NotApplicable.because(Applicability.CLAIMS_MORE
                    + "it claims the read profile, and clause 5.6.7 binds a device that does not");
        }
        final PeerConnection connection = testbed.connection();
        final PacketBuilder request = connection.packet(Opcode.READ_REQUEST, 0).stream(0)
                .msn(connection.takeMsn(0))
                .messageLength(LENGTH)
                .remoteAddress(TARGET)
                .remoteKey(testbed.key())
                .sinkHandle(0x51)
                .transmitTimestamp(5)
                .ackRequest();
        judgeRefusal(testbed, request, "READ_REQUEST");
        // 5.6.7: a device without the read profile reads nothing for the peer.
        testbed.peer().assertNone(0, PacketMatcher.expect().data().opcode(Opcode.READ_RESPONSE), testbed.quiet());
    }

    @Test
    @DisplayName("a WRITE_WITH_IMMEDIATE to a device without the immediate profile gets NACK INVALID_REQUEST, places"
            + " nothing and completes nothing")
    @Verifies("5.6.7")
    @Kind(Kind.Purpose.INVALID)
    void writeWithImmediateIsRefused(final Testbed testbed) throws Exception {
        if (testbed.profile().claims(Profile.IMMEDIATE)) {
            throw NotApplicable.because(Applicability.CLAIMS_MORE
                    + "it claims the immediate profile, and clause 5.6.7 binds a device that does not");
        }
        final byte[] before = testbed.control().readRegion(testbed.key(), TARGET, LENGTH);
        final byte[] payload = Testbed.randomBytes(LENGTH, 57);
        final PeerConnection connection = testbed.connection();
        final PacketBuilder write = connection.packet(Opcode.WRITE_WITH_IMMEDIATE, 0).stream(0)
                .msn(connection.takeMsn(0))
                .messageLength(LENGTH)
                .messageOffset(0)
                .remoteAddress(TARGET)
                .remoteKey(testbed.key())
                .immediate(0xC0FFEE)
                .payload(payload)
                .transmitTimestamp(6)
                .ackRequest();
        judgeRefusal(testbed, write, "WRITE_WITH_IMMEDIATE");
        assertThat(testbed.control().readRegion(testbed.key(), TARGET, LENGTH))
                .as("5.6.7: the refused WRITE_WITH_IMMEDIATE placed nothing")
                .isEqualTo(before);
        assertThat(testbed.control().pollCompletions(16, testbed.quiet()))
                .as("5.6.7: the refused WRITE_WITH_IMMEDIATE raised no completion")
                .isEmpty();
    }

    /** Sends {@code packet} as the next of path 0 and checks its NACK INVALID_REQUEST and the counter. */
    private static void judgeRefusal(final Testbed testbed, final PacketBuilder packet, final String what)
            throws Exception {
        final Map<String, Long> counters = testbed.counters();
        final int mark = testbed.peer().mark();
        final long psn = testbed.connection().sendNew(packet, 0).psn();
        final NackPacket nack = testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .nack()
                                .connection(Testbed.TESTER_CONNECTION)
                                .psn(psn),
                        Testbed.WAIT)
                .nack()
                .orElseThrow();
        assertThat(nack.code())
                .as("5.6.7: a %s of a profile the device does not claim is refused", what)
                .isEqualTo(NackCode.INVALID_REQUEST);
        assertThat(testbed.awaitGrowth(counters, DutCounters.REJECT_INVALID_REQUEST, 1))
                .as("5.6.7: and counted under reject_invalid_request")
                .isEqualTo(1);
    }
}
