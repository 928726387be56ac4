package org.mrconf.explore;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each thing explore does beyond valid traffic, as one hand-written program: a message the device must refuse (each
 * {@link Program.Fault}), a damaged copy, a copy with reserved fields set, a NACK of what the device sent. The clean
 * reference passes every one (explore is fair there), and a defect that breaks the rule the program exercises fails
 * it under that rule's clause (explore can see it).
 */
class RefusalsAndDamageTest {
    @TempDir
    Path scratch;

    private static final int ONE_PACKET = 40;
    private static final int THREE_PACKETS = 9000;

    static Stream<Arguments> programs() {
        return Stream.of(
                Arguments.of(refusing(Program.Fault.BAD_KEY, ONE_PACKET), "unknown-key-nacked-as-bounds", "11.1.1"),
                Arguments.of(refusing(Program.Fault.NO_WRITE_ACCESS, ONE_PACKET), "ignore-remote-write-flag", "11.1.2"),
                Arguments.of(
                        refusing(Program.Fault.NO_WRITE_ACCESS_PAST_END, ONE_PACKET),
                        "bounds-checked-before-access",
                        "5.6.6"),
                Arguments.of(refusing(Program.Fault.CROSSES_END, THREE_PACKETS), "bounds-checked-per-packet", "11.1.3"),
                Arguments.of(refusing(Program.Fault.CROSSES_END, 0), "empty-range-unchecked", "11.1.3"),
                Arguments.of(refusing(Program.Fault.FAR_ABOVE, ONE_PACKET), "bounds-offset-in-32-bits", "11.1.3"),
                Arguments.of(refusing(Program.Fault.UNKNOWN_STREAM, ONE_PACKET), "invalid-request-wrong-code", "9.1.1"),
                Arguments.of(sendLongerThanItsReceive(), "send-overruns-receive-buffer", "7.3.3"),
                Arguments.of(impaired(Program.Kind.CORRUPT), "accept-bad-crc", "7.3.1"), // the damaged SEND's bytes
                Arguments.of(impaired(Program.Kind.RESERVED_SET), "reject-nonzero-reserved", "7.5.1"),
                Arguments.of(deviceSendsNacked(), "final-nack-retransmitted", "9.1.7"),
                Arguments.of(sendOvertakesWrite(), "receive-completion-overtakes-silent-messages", "7.5.9"),
                Arguments.of(sendOvertakesWrite(), "ack-last-received-psn", "8.1.4"),
                Arguments.of(deviceSendsAndTheTesterLoses(), "go-back-n", "6.4.1"),
                Arguments.of(deviceSendsAndTheTesterLoses(), "only-first-hole-lost", "6.3.1"),
                Arguments.of(deviceSendsAndTheTesterLoses(), "retransmit-without-flag", "6.4.2"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("programs")
    void theCleanReferencePassesAndTheDefectFailsUnderTheClause(
            final Program program, final String defect, final String clause) throws Exception {
        TrialChecks.cleanPassesAndDefectFails(program, defect, clause, scratch);
    }

    /** A valid WRITE, then the refused one, then a SEND that must still be placed and completed (clause 7.5.9). */
    private static Program refusing(final Program.Fault fault, final int length) {
        return new Program(
                1,
                false,
                1,
                1,
                0,
                List.of(
                        new Program.Message(Program.Op.WRITE, 0, 100, 0, 0, 0, 11),
                        new Program.Message(Program.Op.WRITE, 0, length, 0, 0, 0, 12, fault),
                        new Program.Message(Program.Op.SEND, 0, 50, 0, 0, 0, 13)),
                List.of());
    }

    /** A WRITE of three packets whose last the network holds back behind a SEND of the same stream. */
    private static Program sendOvertakesWrite() {
        return new Program(
                5,
                false,
                1,
                1,
                0,
                List.of(
                        new Program.Message(Program.Op.WRITE, 0, THREE_PACKETS, 0, 0, 0, 51),
                        new Program.Message(Program.Op.SEND, 0, 20, 0, 0, 0, 52)),
                List.of(new Program.Impairment(Program.Kind.REORDER, 2, 1)));
    }

    private static Program sendLongerThanItsReceive() {
        return new Program(
                2,
                false,
                1,
                1,
                0,
                List.of(
                        new Program.Message(Program.Op.SEND, 0, 200, 0, 0, 0, 21, Program.Fault.LONGER_THAN_RECEIVE),
                        new Program.Message(Program.Op.SEND, 0, 30, 0, 0, 0, 22)),
                List.of());
    }

    /** Two WRITEs whose first packet is impaired {@code kind}. */
    private static Program impaired(final Program.Kind kind) {
        return new Program(
                3,
                false,
                1,
                1,
                0,
                List.of(
                        new Program.Message(Program.Op.SEND, 0, 300, 0, 0, 0, 31),
                        new Program.Message(Program.Op.WRITE, 0, 300, 0, 0, 0, 32)),
                List.of(new Program.Impairment(kind, 0, 1)));
    }

    /** The device sends a WRITE of five packets, and the tester loses its first and third PSN. */
    private static Program deviceSendsAndTheTesterLoses() {
        return new Program(
                6,
                true,
                1,
                1,
                0,
                List.of(new Program.Message(Program.Op.WRITE, 0, 5 * 4000, 0, 0, 0, 61)),
                List.of(
                        new Program.Impairment(Program.Kind.LOSS, 0, 1),
                        new Program.Impairment(Program.Kind.LOSS, 2, 1)));
    }

    /** The device sends a SEND the tester NACKs MESSAGE_TOO_LONG, then a WRITE that must still succeed. */
    private static Program deviceSendsNacked() {
        return new Program(
                4,
                true,
                1,
                1,
                0,
                List.of(
                        new Program.Message(Program.Op.SEND, 0, 60, 0, 0, 0, 41, Program.Fault.LONGER_THAN_RECEIVE),
                        new Program.Message(Program.Op.WRITE, 0, 500, 0, 0, 0, 42)),
                List.of());
    }
}
