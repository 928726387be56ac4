package org.mrconf.cases.fields;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Kind;
import org.mrconf.cases.NotApplicable;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DutCounters;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.NackPacket;

/**
 * The row of Table 5-13 for a message longer than the receiver's declared maximum message length (clause 12.1.2):
 * a WRITE or READ_REQUEST of one byte more gets NACK MESSAGE_TOO_LONG, and, as step 7 of clause 5.6.6, before its key
 * and region are looked at: with a valid key into a region too small for it (BOUNDS would be the region check's
 * answer), and with a key that names no region (REMOTE_ACCESS would be). Nothing is placed.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Declared maximum message length")
class MessageLimitCase {
    private static final int PATH = 0;
    private static final int PAYLOAD = 64;

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName("a WRITE or READ_REQUEST one byte longer than the declared maximum message length is NACKed"
            + " MESSAGE_TOO_LONG, whatever its key and region")
    @Verifies("5.6.5")
    @Verifies("5.6.6")
    void longerThanTheMaximumIsMessageTooLong(final Testbed testbed) throws Exception {
        final long maximum = testbed.profile().conformance().limits().maxMessageLength();
        if (maximum >= 0xFFFF_FFFFL) {
            throw NotApplicable.because("the declared maximum message length, " + maximum + " bytes, is the longest"
                    + " the 32-bit message length field carries: no message is longer");
        }
        final long tooLong = maximum + 1;
        final byte[] payload = Testbed.randomBytes(PAYLOAD, 91);
        expectMessageTooLong(
                testbed,
                "a WRITE of " + tooLong + " bytes into a valid region",
                testbed.write(PATH, Testbed.BASE, testbed.key(), payload).messageLength(tooLong));
        expectMessageTooLong(
                testbed,
                "a WRITE of " + tooLong + " bytes with a key that names no region",
                testbed.write(PATH, Testbed.BASE, testbed.key() ^ 0x5A5A, payload)
                        .messageLength(tooLong));
        CaseSteps.assertBytes(
                testbed, testbed.key(), Testbed.BASE, new byte[PAYLOAD], "9.1.3: a WRITE NACKed places nothing");
        if (testbed.profile().claims(Profile.READ)) {
            expectMessageTooLong(
                    testbed,
                    "a READ_REQUEST of " + tooLong + " bytes from a valid region",
                    testbed.connection().packet(org.mrconf.wire.Opcode.READ_REQUEST, PATH).stream(0)
                            .msn(testbed.connection().takeMsn(0))
                            .messageLength(tooLong)
                            .remoteAddress(Testbed.BASE)
                            .remoteKey(testbed.key())
                            .sinkHandle(0x77)
                            .transmitTimestamp(4444)
                            .ackRequest());
        }
    }

    private static void expectMessageTooLong(final Testbed testbed, final String what, final PacketBuilder packet)
            throws Exception {
        final Map<String, Long> before = testbed.counters();
        final int mark = testbed.peer().mark();
        final long psn = testbed.connection().sendNew(packet, PATH).psn();
        final NackPacket nack = InvalidFieldsCase.awaitNack(testbed, mark);
        assertThat(nack.code())
                .as("5.6.6 step 7, Table 5-13: %s is longer than the declared maximum message length", what)
                .isEqualTo(NackCode.MESSAGE_TOO_LONG);
        assertThat(nack.header().psn()).as("the NACK names the packet's PSN").isEqualTo(psn);
        assertThat(testbed.grew(before, DutCounters.REJECT_MESSAGE_TOO_LONG))
                .as("5.6.5: %s is counted in %s", what, DutCounters.REJECT_MESSAGE_TOO_LONG)
                .isEqualTo(1);
    }
}
