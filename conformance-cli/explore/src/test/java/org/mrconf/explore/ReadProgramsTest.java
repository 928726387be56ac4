package org.mrconf.explore;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * READ in explore's programs, as hand-written programs: the tester's READs the device must answer (with a duplicate
 * READ_REQUEST, and refused ones), and the device's READs the tester answers. The clean reference passes every one
 * (explore is fair there), and a defect of the read path fails it under that rule's clause (explore can see it).
 */
class ReadProgramsTest {
    @TempDir
    Path scratch;

    /** Over two packets at any MTU of 1500 or more, under three at 4200. */
    private static final int TWO_PACKETS = 5000;

    static Stream<Arguments> programs() {
        return Stream.of(
                // read-response-short (7.4.1) is ExploreTest's; these are the shapes a random explore meets rarely.
                Arguments.of(testerReads(), "read-request-reexecuted", "7.4.3"),
                Arguments.of(refusedRead(Program.Fault.NO_READ_ACCESS), "ignore-remote-read-flag", "11.1.2"),
                Arguments.of(deviceReads(TWO_PACKETS), "read-completes-on-last-segment", "7.4.2"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("programs")
    void theCleanReferencePassesAndTheDefectFailsUnderTheClause(
            final Program program, final String defect, final String clause) throws Exception {
        TrialChecks.cleanPassesAndDefectFails(program, defect, clause, scratch);
    }

    /**
     * The tester WRITEs, READs a stretch of two packets (its READ_REQUEST duplicated by the network), and SENDs, on
     * one stream.
     */
    private static Program testerReads() {
        return new Program(
                7,
                false,
                1,
                1,
                0,
                List.of(
                        new Program.Message(Program.Op.WRITE, 0, 100, 0, 0, 0, 71),
                        new Program.Message(Program.Op.READ, 0, TWO_PACKETS, 0, 0, 0, 72),
                        new Program.Message(Program.Op.SEND, 0, 50, 0, 0, 0, 73)),
                List.of(new Program.Impairment(Program.Kind.DUPLICATE, 1, 1)));
    }

    /** A valid READ, a refused one, then a SEND that must still be placed and completed (clause 7.5.9). */
    private static Program refusedRead(final Program.Fault fault) {
        return new Program(
                8,
                false,
                1,
                1,
                0,
                List.of(
                        new Program.Message(Program.Op.READ, 0, 300, 0, 0, 0, 81),
                        new Program.Message(Program.Op.READ, 0, 40, 0, 0, 0, 82, fault),
                        new Program.Message(Program.Op.SEND, 0, 50, 0, 0, 0, 83)),
                List.of());
    }

    /**
     * The device WRITEs, READs {@code length} bytes from the tester, and WRITEs again, on one stream (an empty READ
     * meets empty-read-completes-on-ack the same way, 7.4.2).
     */
    private static Program deviceReads(final int length) {
        return new Program(
                9,
                true,
                1,
                1,
                0,
                List.of(
                        new Program.Message(Program.Op.WRITE, 0, 100, 0, 0, 0, 91),
                        new Program.Message(Program.Op.READ, 0, length, 0, 0, 0, 92),
                        new Program.Message(Program.Op.WRITE, 0, 60, 0, 0, 0, 93)),
                List.of());
    }
}
