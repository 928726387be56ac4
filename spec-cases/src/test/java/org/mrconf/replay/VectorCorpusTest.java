package org.mrconf.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.ClauseCatalogue;

/**
 * The committed corpus reads cleanly, and every kind of bad vector gets one error naming the file and the field while
 * the other vectors stay usable.
 */
class VectorCorpusTest {
    private static final Path COMMITTED = Path.of("..", "test-vectors");
    private static final String SAMPLE = "11.1.3/write-past-region-end";

    private static ClauseCatalogue catalogue;

    @TempDir
    Path dir;

    @BeforeAll
    static void loadCatalogue() throws Exception {
        catalogue = new CatalogueLoader().loadBundled();
    }

    @Test
    void shouldReadEveryCommittedVectorWithoutAProblem() throws Exception {
        final VectorCorpus corpus = VectorCorpus.discover(COMMITTED, catalogue);
        assertThat(corpus.problems()).isEmpty();
        assertThat(corpus.vectors()).hasSizeGreaterThanOrEqualTo(36);
        assertThat(corpus.vectors()).extracting(v -> v.sidecar().kind()).contains("valid", "invalid", "inopportune");
        assertThat(corpus.vectors()).allSatisfy(v -> assertThat(v.sha256()).hasSize(64));
    }

    static Stream<Arguments> breakages() {
        return Stream.of(
                Arguments.of(
                        "a wrong type",
                        edit("\"paths\" : 1", "\"paths\" : \"one\""),
                        "vector.json: $.setup.paths: must be a whole number"),
                Arguments.of(
                        "an unknown clause", edit("\"11.1.3\" ]", "\"11.9.9\" ]"), "$.clauses: names clause 11.9.9"),
                Arguments.of(
                        "an unknown placeholder",
                        edit("\"target\" : {", "\"other\" : {"),
                        "$.placeholders.regions: names region 'other'"),
                Arguments.of(
                        "another spec version",
                        edit("\"specVersion\" : \"", "\"specVersion\" : \"9"),
                        "$.specVersion: is 9"),
                Arguments.of("an unknown field", edit("\"pacing\"", "\"pacnig\""), "$.pacnig: is not a field"),
                Arguments.of(
                        "not JSON", (UnaryOperator<String>) s -> s.substring(0, s.length() / 2), "is not valid JSON"),
                Arguments.of("an id that is not its folder", edit("\"id\" : \"", "\"id\" : \"x"), "$.id: is 'x"),
                Arguments.of(
                        "an upper bound below the lower one",
                        edit("\"nackCode\" : \"BOUNDS\"", "\"nackCode\" : \"BOUNDS\", \"atLeast\" : 2, \"atMost\" : 1"),
                        "$.expect.responses[0].atMost: is 1; must be 2 to 1000000"),
                Arguments.of(
                        "an upper bound on a packet that must never come",
                        edit(
                                "\"expect\" : {",
                                "\"expect\" : { \"never\" : [ { \"opcode\" : \"ACK\", \"atMost\" : 1 } ],"),
                        "$.expect.never[0].atMost: is not a field"),
                Arguments.of(
                        "SACK bits on a NACK",
                        edit("\"nackCode\" : \"BOUNDS\"", "\"nackCode\" : \"BOUNDS\", \"sack\" : [ 1 ]"),
                        "$.expect.responses[0].sack: is only for an ACK"),
                Arguments.of(
                        "an echoed timestamp on a NACK",
                        edit("\"nackCode\" : \"BOUNDS\"", "\"nackCode\" : \"BOUNDS\", \"echoedTimestamp\" : 7"),
                        "$.expect.responses[0].echoedTimestamp: is only for an ACK"),
                Arguments.of(
                        "a rejected packet without its MSN",
                        edit(
                                "\"nackCode\" : \"BOUNDS\"",
                                "\"nackCode\" : \"BOUNDS\", \"rejected\" : { \"psnOffset\" : 0, \"stream\" : 0 }"),
                        "$.expect.responses[0].rejected.msn: is missing"),
                Arguments.of(
                        "an order of fewer than two completions",
                        edit("\"expect\" : {", "\"expect\" : { \"completionsInOrder\" : true,"),
                        "$.expect.completionsInOrder: needs at least two completions to put in order"),
                Arguments.of(
                        "no expectation",
                        (UnaryOperator<String>)
                                s -> s.replaceAll("(?s)\"expect\" : \\{.*\\}\\s*\\}\\s*$", "\"expect\" : { } }"),
                        "$.expect: expects nothing"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("breakages")
    void shouldNameTheFileAndFieldOfABrokenSidecarAndKeepTheOthers(
            final String what, final UnaryOperator<String> breakage, final String message) throws Exception {
        copy(SAMPLE);
        copy("6.5.1/duplicate-write");
        final Path sidecar = dir.resolve(SAMPLE).resolve(TestVector.SIDECAR);
        Files.writeString(sidecar, breakage.apply(Files.readString(sidecar)), StandardCharsets.UTF_8);

        final VectorCorpus corpus = VectorCorpus.discover(dir, catalogue);

        assertThat(corpus.vectors()).extracting(TestVector::id).containsExactly("6.5.1/duplicate-write");
        assertThat(corpus.problems()).hasSize(1);
        assertThat(corpus.problems().get(0).getMessage())
                .contains(sidecar.toString())
                .contains(message);
    }

    static Stream<Arguments> stepBreakages() {
        return Stream.of(
                Arguments.of(
                        "a request placeholder no step binds",
                        edit("\"as\" : \"read\"", "\"as\" : \"other\""),
                        "$.placeholders.requests.read: is an unknown placeholder"),
                Arguments.of(
                        "a step of two actions",
                        edit("\"post\" : {", "\"send\" : { \"frames\" : [ 0 ] }, \"post\" : {"),
                        "$.steps[0]: must hold exactly one of post, await, send, check, acks, nack and control"),
                Arguments.of(
                        "an unknown post operation",
                        edit("\"op\" : \"READ\"", "\"op\" : \"FETCH\""),
                        "$.steps[0].post.op: is 'FETCH'"),
                Arguments.of(
                        "a post from an unknown region",
                        edit(
                                "\"region\" : \"sink\",\n      \"offset\" : 1,\n      \"length\" : 4087,",
                                "\"region\" : \"sunk\",\n      \"offset\" : 1,\n      \"length\" : 4087,"),
                        "$.steps[0].post.region: names no region"),
                Arguments.of(
                        "an unknown await field",
                        edit("\"as\" : \"read\",", "\"as\" : \"read\", \"psn\" : 4,"),
                        "$.steps[1].await.psn: is not a field"),
                Arguments.of(
                        "a placement check in a vector with steps",
                        edit("\"expect\" : {", "\"expect\" : { \"placedWhenAcknowledged\" : true,"),
                        "$.expect.placedWhenAcknowledged: applies to a vector without steps only"),
                Arguments.of(
                        "a frame index that is no number",
                        edit("\"frames\" : [ 3 ]", "\"frames\" : [ \"last\" ]"),
                        "$.steps[2].send.frames[]: must be frame indexes from 0"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stepBreakages")
    void shouldNameTheFileAndFieldOfABrokenStep(
            final String what, final UnaryOperator<String> breakage, final String message) throws Exception {
        assertTheOnlyProblem("7.4.2/read-answered-out-of-order", breakage, message);
    }

    /** Breakages of the link, checksum and rate fields, each in the committed vector that uses the field. */
    static Stream<Arguments> fieldBreakages() {
        return Stream.of(
                Arguments.of(
                        "4.1.6/udp-checksums-over-ipv4",
                        "a checksum for a frame the capture does not hold",
                        edit("\"frame\" : 1,", "\"frame\" : 7,"),
                        "$.udpChecksums: names frame 7, and stimulus.pcap holds 2 frames"),
                Arguments.of(
                        "4.1.6/udp-checksums-over-ipv4",
                        "one frame given two checksums",
                        edit("\"frame\" : 1,", "\"frame\" : 0,"),
                        "$.udpChecksums[1].frame: names frame 0 twice"),
                Arguments.of(
                        "4.1.6/udp-checksums-over-ipv4",
                        "an unknown checksum",
                        edit("\"checksum\" : \"wrong\"", "\"checksum\" : \"bad\""),
                        "$.udpChecksums[1].checksum: is 'bad'"),
                Arguments.of(
                        "4.1.6/udp-checksums-over-ipv4",
                        "whole frames from another address",
                        edit(
                                "\"asCaptured\" : [ \"ipFamily\" ]",
                                "\"asCaptured\" : [ \"ipFamily\", \"sourceAddress\" ]"),
                        "$.udpChecksums: cannot be combined with asCaptured sourceAddress"),
                Arguments.of(
                        "4.1.6/udp-checksums-over-ipv4",
                        "an unknown link-level field",
                        edit("\"asCaptured\" : [ \"ipFamily\" ]", "\"asCaptured\" : [ \"ipVersion\" ]"),
                        "$.asCaptured[0]: is 'ipVersion'"),
                Arguments.of(
                        "4.1.6/udp-checksums-over-ipv4",
                        "a check of the DUT's checksums that is no boolean",
                        edit("\"sentUdpChecksums\" : true", "\"sentUdpChecksums\" : \"yes\""),
                        "$.expect.sentUdpChecksums"),
                Arguments.of(
                        "10.1.4/dut-paced-to-the-rate-hint",
                        "a rate hint of zero",
                        edit("\"rateHint\" : 10", "\"rateHint\" : 0"),
                        "$.steps[0].acks.rateHint: is in Mbit/s and at least 1"),
                Arguments.of(
                        "10.1.4/dut-paced-to-the-rate-hint",
                        "a rate check before any hint",
                        edit("\"rateHint\" : 10\n", "\"loseFirst\" : false\n"),
                        "$.steps[4].check.rateWithinHint: needs an earlier acks step that gives the rateHint"),
                Arguments.of(
                        "10.1.4/dut-paced-to-the-rate-hint",
                        "a rate check over no time",
                        edit("\"rateWithinHint\" : 100", "\"rateWithinHint\" : 0"),
                        "$.steps[4].check.rateWithinHint: must be an interval of at least 1 ms"),
                Arguments.of(
                        "10.1.4/dut-paced-to-the-rate-hint",
                        "a rate check without the congestion profile",
                        edit("\"profiles\" : [ \"core\", \"congestion\" ]", "\"profiles\" : [ \"core\" ]"),
                        "$.profiles: must name congestion"),
                Arguments.of(
                        LOSS_VECTOR,
                        "a description of what arrived without a hold",
                        edit("\"hold\" : true,\n      \"describe\"", "\"hold\" : false,\n      \"describe\""),
                        "$.steps[7].acks.describe: is for a hold"),
                Arguments.of(
                        LOSS_VECTOR,
                        "a repair judged without a description before it",
                        edit("\"describe\" : true", "\"describe\" : false"),
                        "$.steps[8].check.resentOnlyLost: judges the resends after the ACKs of an acks step with"
                                + " describe true"),
                Arguments.of(
                        LOSS_VECTOR,
                        "losses that no later acks step ends",
                        edit(
                                "  }, {\n    \"acks\" : {\n      \"hold\" : true,\n      \"describe\" : true\n    }\n"
                                        + "  }, {\n    \"check\" : {\n      \"resentOnlyLost\" : true\n    }\n"
                                        + "  }, {\n    \"acks\" : {\n      \"hold\" : false\n    }\n",
                                ""),
                        "$.steps[4].acks.lose: loses those PSNs until the next acks step, and none follows"),
                Arguments.of(
                        LOSS_VECTOR,
                        "a lost PSN beyond the window",
                        edit("\"lose\" : [ 0, 1 ]", "\"lose\" : [ 0, 256 ]"),
                        "$.steps[4].acks.lose[]: must be PSN offsets from each path's next new PSN, 0 to 255"),
                Arguments.of(
                        LOSS_VECTOR,
                        "an echo older than the timestamps wrap",
                        edit("\"echoAge\" : 400", "\"echoAge\" : 5000"),
                        "$.steps[0].acks.echoAge"),
                Arguments.of(
                        WINDOW_VECTOR,
                        "a window counted while the tester acknowledges at once",
                        edit("\"hold\" : true\n", "\"hold\" : false\n"),
                        "$.steps[5].check.pathWindow: counts the packets the DUT has in flight, which needs an earlier"
                                + " post while the tester holds its ACKs back"),
                Arguments.of(
                        WINDOW_VECTOR,
                        "a CE count wider than its field",
                        edit("\"ceCount\" : 1", "\"ceCount\" : 65536"),
                        "$.steps[6].acks.ceCount"),
                Arguments.of(
                        "8.1.4/ack-coalescing-count-bounded",
                        "a coalescing check that is no boolean",
                        edit("\"ackCoalescing\" : true", "\"ackCoalescing\" : 16"),
                        "$.expect.ackCoalescing"),
                Arguments.of(
                        HEALTH_VECTOR,
                        "a silence no later acks step ends",
                        edit(
                                "\"hold\" : false\n    }\n  }, {\n    \"check\" : {\n      \"completed\"",
                                "\"hold\" : false, \"silentPaths\" : [ 1 ]\n    }\n  }, {\n    \"check\" : {\n"
                                        + "      \"completed\""),
                        "$.steps[9].acks.silentPaths: keeps those paths silent until the next acks step, and none"
                                + " follows"),
                Arguments.of(
                        HEALTH_VECTOR,
                        "a silent path id beyond 255",
                        edit("\"silentPaths\" : [ 0 ]", "\"silentPaths\" : [ 256 ]"),
                        "$.steps[0].acks.silentPaths[]: must be path ids, 0 to 255"),
                Arguments.of(
                        HEALTH_VECTOR,
                        "a path shown unhealthy with nothing silent",
                        edit("\"silentPaths\" : [ 0 ]", "\"silentPaths\" : [ ]"),
                        "$.steps[2].check.unhealthy: waits for silent paths to turn unhealthy"),
                Arguments.of(
                        "6.6.1/dut-rto-from-the-echoed-timestamp",
                        "an RTO judged with nothing held back",
                        edit("\"hold\" : true", "\"hold\" : false"),
                        "$.steps[5].check.rtoFollowsEcho: judges the RTO of a packet sent while the tester holds its"
                                + " ACKs back"),
                Arguments.of(
                        "6.6.5/dut-first-window-crosses-a-10-ms-path",
                        "a resend judged with no hold released",
                        edit("\"hold\" : true", "\"hold\" : false"),
                        "$.steps[4].check.noSpuriousResend: judges the packets sent while the tester held its ACKs"
                                + " back"),
                Arguments.of(
                        "6.6.5/dut-first-window-crosses-a-10-ms-path",
                        "a round trip longer than 10 s",
                        edit("\"waitMs\" : 10", "\"waitMs\" : 10001"),
                        "$.steps[3].acks.waitMs"));
    }

    private static final String HEALTH_VECTOR = "6.7.1/dut-unhealthy-path-avoided-then-healed";

    private static final String WINDOW_VECTOR = "10.1.1/dut-path-window-halves-on-ce";

    private static final String LOSS_VECTOR = "6.3.1/dut-resends-every-hole-of-one-ack";

    @ParameterizedTest(name = "{1}")
    @MethodSource("fieldBreakages")
    void shouldNameTheFieldOfABrokenLinkChecksumOrRateField(
            final String id, final String what, final UnaryOperator<String> breakage, final String message)
            throws Exception {
        assertTheOnlyProblem(id, breakage, message);
    }

    /** Breaks the sidecar of the committed vector {@code id} and expects one problem naming its file and the field. */
    private void assertTheOnlyProblem(final String id, final UnaryOperator<String> breakage, final String message)
            throws Exception {
        copy(id);
        final Path sidecar = dir.resolve(id).resolve(TestVector.SIDECAR);
        Files.writeString(sidecar, breakage.apply(Files.readString(sidecar)), StandardCharsets.UTF_8);

        final VectorCorpus corpus = VectorCorpus.discover(dir, catalogue);

        assertThat(corpus.vectors()).isEmpty();
        assertThat(corpus.problems()).hasSize(1);
        assertThat(corpus.problems().get(0).getMessage())
                .contains(sidecar.toString())
                .contains(message);
    }

    static Stream<Arguments> controlBreakages() {
        return Stream.of(
                Arguments.of(
                        "an unknown control operation",
                        edit("\"op\" : \"invalidate_region\"", "\"op\" : \"reboot\""),
                        "$.steps[2].control.op: is 'reboot'"),
                Arguments.of(
                        "an invalidation of an unknown region",
                        edit(
                                "\"op\" : \"invalidate_region\",\n      \"region\" : \"target\"",
                                "\"op\" : \"invalidate_region\",\n      \"region\" : \"elsewhere\""),
                        "$.steps[2].control.region: names no region of $.setup.regions"),
                Arguments.of(
                        "an invalidation without a region",
                        edit(
                                "\"op\" : \"invalidate_region\",\n      \"region\" : \"target\"",
                                "\"op\" : \"invalidate_region\""),
                        "$.steps[2].control.region: is missing"),
                Arguments.of(
                        "a destroy naming a region",
                        edit("\"op\" : \"invalidate_region\"", "\"op\" : \"destroy_connection\""),
                        "$.steps[2].control.region: is only for invalidate_region"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("controlBreakages")
    void shouldNameTheFieldOfABrokenControlStep(
            final String what, final UnaryOperator<String> breakage, final String message) throws Exception {
        assertTheOnlyProblem("11.1.4/write-after-invalidation", breakage, message);
    }

    static Stream<Arguments> silentTesterBreakages() {
        return Stream.of(
                Arguments.of(
                        "a timer check after the tester acknowledged",
                        edit("\"hold\" : true", "\"hold\" : false"),
                        "$.steps[2].check: judges the DUT's timers or spraying, which needs a tester that has"
                                + " acknowledged nothing"),
                Arguments.of(
                        "a change of source port without the resends it judges",
                        edit("\"resentOldest\" : true", "\"newSourcePort\" : true"),
                        "$.steps[2].check.newSourcePort: judges the retransmissions resentOldest waits for"),
                Arguments.of(
                        "a backoff check without the resends it judges",
                        edit("\"resentOldest\" : true,", ""),
                        "$.steps[2].check.backoff: judges the retransmissions resentOldest waits for"),
                Arguments.of(
                        "a step after the connection failed that needs it alive",
                        edit("\"resentOldest\" : true,\n      \"backoff\" : true", "\"failed\" : [ 1100 ]"),
                        "$.steps[3]: comes after the connection failed ($.steps[2].check.failed)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("silentTesterBreakages")
    void shouldRefuseTimerChecksWithoutASilentTester(
            final String what, final UnaryOperator<String> breakage, final String message) throws Exception {
        assertTheOnlyProblem("6.6.2/dut-timer-resends-the-oldest-psn", breakage, message);
    }

    @Test
    void shouldRejectANackOfAMessageNoAwaitNamedAndAHoldThatIsNoBoolean() throws Exception {
        final String id = "9.1.7/dut-write-nacked-remote-access-fails";
        copy(id);
        final Path sidecar = dir.resolve(id).resolve(TestVector.SIDECAR);
        final String text = Files.readString(sidecar);
        Files.writeString(
                sidecar, edit("\"of\" : \"write\"", "\"of\" : \"wirte\"").apply(text));
        assertThat(VectorCorpus.discover(dir, catalogue).problems().get(0).getMessage())
                .contains("$.steps[3].nack.of: names no message an earlier await bound");
        Files.writeString(sidecar, edit("\"hold\" : true", "\"hold\" : \"yes\"").apply(text));
        assertThat(VectorCorpus.discover(dir, catalogue).problems().get(0).getMessage())
                .contains("$.steps[0].acks.hold: must be true or false");
    }

    @Test
    void shouldRejectASidecarThatIsNotUtf8() throws Exception {
        copy(SAMPLE);
        final Path sidecar = dir.resolve(SAMPLE).resolve(TestVector.SIDECAR);
        Files.write(sidecar, new byte[] {(byte) 0xFF, (byte) 0xFE, 0x7B, 0x00});
        assertThat(VectorCorpus.discover(dir, catalogue).problems().get(0).getMessage())
                .contains("is UTF-16 text; a vector sidecar must be UTF-8");
        Files.write(sidecar, new byte[] {0x7B, (byte) 0xC3, 0x7D});
        assertThat(VectorCorpus.discover(dir, catalogue).problems().get(0).getMessage())
                .contains("is not UTF-8 text: byte 0xc3 at offset 1");
    }

    @Test
    void shouldRejectATruncatedOrForeignStimulus() throws Exception {
        copy(SAMPLE);
        copy("6.5.1/duplicate-write");
        final Path truncated = dir.resolve(SAMPLE).resolve(TestVector.STIMULUS);
        final byte[] bytes = Files.readAllBytes(truncated);
        Files.write(truncated, java.util.Arrays.copyOf(bytes, bytes.length - 10));
        final Path foreign = dir.resolve("6.5.1/duplicate-write").resolve(TestVector.STIMULUS);
        Files.writeString(foreign, "this is not a capture");

        final List<VectorException> problems =
                VectorCorpus.discover(dir, catalogue).problems();

        assertThat(problems).hasSize(2);
        assertThat(problems).anySatisfy(p -> assertThat(p.getMessage()).contains(truncated.toString()));
        assertThat(problems).anySatisfy(p -> assertThat(p.getMessage()).contains(foreign.toString()));
    }

    @Test
    void shouldRejectANonEthernetCapture() throws Exception {
        copy(SAMPLE);
        final Path stimulus = dir.resolve(SAMPLE).resolve(TestVector.STIMULUS);
        final byte[] bytes = Files.readAllBytes(stimulus);
        bytes[20] = 101; // the global header's link type: LINKTYPE_RAW instead of Ethernet (1)
        Files.write(stimulus, bytes);
        assertThat(VectorCorpus.discover(dir, catalogue).problems().get(0).getMessage())
                .contains("link type");
    }

    private void copy(final String id) throws Exception {
        final Path from = COMMITTED.resolve(id);
        final Path to = dir.resolve(id);
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (final Path file : files.toList()) {
                Files.copy(file, to.resolve(file.getFileName()));
            }
        }
    }

    private static UnaryOperator<String> edit(final String from, final String to) {
        return s -> {
            assertThat(s).as("the sample sidecar holds %s", from).contains(from);
            return s.replace(from, to);
        };
    }
}
