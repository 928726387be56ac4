package org.mrconf.dut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DeviceDeclaration.LinkKind;
import org.mrconf.pcap.MacAddress;

class DeclarationLoaderTest {
    @TempDir
    Path dir;

    @Test
    void shouldLoadTheBundledReferenceProfileAgainstTheCatalogue() throws Exception {
        DeviceDeclaration profile =
                new DeclarationLoader(new CatalogueLoader().loadBundled()).loadBundled(DeclarationLoader.REFERENCE_UDP);

        assertThat(profile.identity().model()).isEqualTo("reference soft DUT");
        assertThat(profile.claims(Profile.CORE)).isTrue();
        assertThat(profile.claims(Profile.LONG_HAUL)).isFalse();
        assertThat(profile.implementsOptional("6.4.3")).isTrue();
        assertThat(profile.parameters().dut())
                .isEqualTo(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 4796));
        assertThat(profile.parameters().tester().getPort()).isZero();
        assertThat(profile.parameters().timers().ackDelay()).isEqualTo(Duration.ofNanos(50_000));
        assertThat(profile.parameters().timers().ackDeadline()).isEqualTo(Duration.ofNanos(20_050_000));
        assertThat(profile.parameters().timers().ackCoalescing()).isEqualTo(16);
        assertThat(profile.parameters().decreaseFactor()).isEqualTo(0.5);
        assertThat(profile.parameters().congestion().linkRateMbps()).isEqualTo(4000);
        assertThat(profile.parameters().congestion().targetUtilization()).isEqualTo(0.95);
        assertThat(profile.parameters().congestion().hintInterval()).isEqualTo(Duration.ofNanos(10_000));
        assertThat(profile.conformance().limits().mtu()).isEqualTo(4176);
        assertThat(profile.control()).contains(ControlEndpoint.of("127.0.0.1", 4797));
        assertThat(profile.link().kind()).isEqualTo(LinkKind.UDP);
    }

    @Test
    void shouldLoadAFileWithARawLinkAndDefaults() throws Exception {
        Path file = write(edit(root -> {
            ((ObjectNode) root.get("parameters")).remove("initialSendPsn");
            ((ObjectNode) root.get("parameters")).remove("congestion");
            ((ObjectNode) root.get("conformance")).remove("optionalClauses");
            ((ObjectNode) root.get("conformance")).remove("reorderTolerance");
            root.putObject("link").put("kind", "raw").put("interface", "eth1").put("dutMac", "02:00:00:00:00:02");
            ((ObjectNode) root.get("control")).put("token", "0123456789abcdef");
        }));

        DeviceDeclaration profile = new DeclarationLoader().load(file);

        assertThat(profile.link().interfaceName()).contains("eth1");
        assertThat(profile.link().dutMac()).contains(MacAddress.parse("02:00:00:00:00:02"));
        assertThat(profile.link().testerMac()).isEmpty();
        assertThat(profile.control().orElseThrow().token()).contains("0123456789abcdef");
        assertThat(profile.control().orElseThrow().toString()).doesNotContain("0123456789abcdef");
        assertThat(profile.parameters().initialSendPsn()).isZero();
        assertThat(profile.conformance().optionalClauses()).isEmpty();
        assertThat(profile.conformance().reorderTolerance()).isEqualTo(DeviceDeclaration.ReorderTolerance.NONE);
    }

    static Stream<Arguments> badProfiles() {
        return Stream.of(
                bad("unknown top-level field", r -> r.put("vendor", "x"), "vendor", "unknown field"),
                bad(
                        "missing identity field",
                        r -> obj(r, "identity").remove("firmware"),
                        "identity.firmware",
                        "missing"),
                bad("empty vendor", r -> obj(r, "identity").put("vendor", " "), "identity.vendor", "must not be empty"),
                bad(
                        "unknown profile",
                        r -> arr(obj(r, "conformance"), "profiles").add("turbo"),
                        "conformance.profiles[6]",
                        "unknown profile 'turbo'"),
                bad(
                        "duplicate profile",
                        r -> arr(obj(r, "conformance"), "profiles").add("core"),
                        "conformance.profiles[6]",
                        "duplicate profile 'core'"),
                bad(
                        "no profiles",
                        r -> arr(obj(r, "conformance"), "profiles").removeAll(),
                        "conformance.profiles",
                        "at least one profile"),
                bad(
                        "malformed clause id",
                        r -> arr(obj(r, "conformance"), "optionalClauses").insert(0, "6.4"),
                        "conformance.optionalClauses[0]",
                        "not a clause id"),
                bad(
                        "too many paths in the limits",
                        r -> obj(obj(r, "conformance"), "limits").put("maxPaths", 257),
                        "conformance.limits.maxPaths",
                        "must be 1 to 256, found 257"),
                bad(
                        "reorder tolerance above 3",
                        r -> obj(obj(r, "conformance"), "reorderTolerance").put("packets", 4),
                        "conformance.reorderTolerance.packets",
                        "must be 0 to 3"),
                bad(
                        "DUT address as a name",
                        r -> obj(obj(r, "parameters"), "dut").put("address", "dut.example"),
                        "parameters.dut.address",
                        "address literal"),
                bad(
                        "DUT address out of range",
                        r -> obj(obj(r, "parameters"), "dut").put("address", "300.1.1.1"),
                        "parameters.dut.address",
                        "address literal"),
                bad(
                        "DUT port zero",
                        r -> obj(obj(r, "parameters"), "dut").put("udpPort", 0),
                        "parameters.dut.udpPort",
                        "must be 1 to 65535, found 0"),
                bad(
                        "mixed families",
                        r -> obj(obj(r, "parameters"), "tester").put("address", "::1"),
                        "parameters.tester.address",
                        "same IP family"),
                bad(
                        "port as a string",
                        r -> obj(r, "parameters").put("paths", "4"),
                        "parameters.paths",
                        "must be an integer, found string \"4\""),
                bad(
                        "more paths than the limit",
                        r -> {
                            obj(obj(r, "conformance"), "limits").put("maxPaths", 2);
                        },
                        "parameters.paths",
                        "must not exceed conformance.limits.maxPaths (2)"),
                bad(
                        "MTU above the limit",
                        r -> obj(r, "parameters").put("mtu", 9000),
                        "parameters.mtu",
                        "must not exceed conformance.limits.mtu (4176)"),
                bad(
                        "initial PSN beyond 32 bits",
                        r -> obj(r, "parameters").put("initialReceivePsn", 4_294_967_296L),
                        "parameters.initialReceivePsn",
                        "must be 0 to 4294967295"),
                bad(
                        "max RTO below min",
                        r -> obj(obj(r, "parameters"), "timers").put("maxRtoUs", 50),
                        "parameters.timers.maxRtoUs",
                        "must be at least minRtoUs (2000)"),
                bad(
                        "initial RTO out of bounds",
                        r -> obj(obj(r, "parameters"), "timers").put("initialRtoUs", 900_000),
                        "parameters.timers.initialRtoUs",
                        "must lie between minRtoUs and maxRtoUs"),
                bad(
                        "negative tolerance",
                        r -> obj(obj(r, "parameters"), "timers").put("toleranceUs", -1),
                        "parameters.timers.toleranceUs",
                        "must be 0 to"),
                bad(
                        "unknown timer",
                        r -> obj(obj(r, "parameters"), "timers").put("rtoUs", 1),
                        "parameters.timers.rtoUs",
                        "unknown field"),
                bad(
                        "decrease factor of 1",
                        r -> obj(obj(r, "parameters"), "congestion").put("decreaseFactor", 1.0),
                        "parameters.congestion.decreaseFactor",
                        "must be 0.01 to 0.99"),
                bad(
                        "short token",
                        r -> obj(r, "control").put("token", "short"),
                        "control.token",
                        "at least 16 characters"),
                bad(
                        "control port out of range",
                        r -> obj(r, "control").put("port", 70_000),
                        "control.port",
                        "must be 1 to 65535"),
                bad("no control for a UDP link", r -> r.remove("control"), "control", "a udp link needs"),
                bad(
                        "unknown link kind",
                        r -> obj(r, "link").put("kind", "carrier-pigeon"),
                        "link.kind",
                        "unknown link kind 'carrier-pigeon', expected one of embedded, udp, raw"),
                bad("raw link without interface", r -> obj(r, "link").put("kind", "raw"), "link.interface", "missing"),
                bad(
                        "interface on a UDP link",
                        r -> obj(r, "link").put("interface", "eth0"),
                        "link.interface",
                        "only a raw link has it"),
                bad(
                        "bad MAC",
                        r -> obj(r, "link")
                                .put("kind", "raw")
                                .put("interface", "eth0")
                                .put("dutMac", "02:00"),
                        "link.dutMac",
                        "must be a MAC address"),
                bad(
                        "multicast MAC",
                        r -> obj(r, "link")
                                .put("kind", "raw")
                                .put("interface", "eth0")
                                .put("testerMac", "01:00:5e:00:00:01"),
                        "link.testerMac",
                        "unicast"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badProfiles")
    void shouldNameTheFileAndFieldOfEveryProblem(String name, Consumer<ObjectNode> change, String field, String problem)
            throws Exception {
        Path file = write(edit(change));

        DeclarationException e =
                catchThrowableOfType(DeclarationException.class, () -> new DeclarationLoader().load(file));

        assertThat(e).as(name).isNotNull();
        assertThat(e.source()).isEqualTo(file.toString());
        assertThat(e.field()).isEqualTo(field);
        assertThat(e.getMessage()).startsWith(file + ": " + field + ": ").contains(problem);
    }

    @Test
    void shouldRejectAMustClauseListedAsOptionalGivenTheCatalogue() throws Exception {
        Path file =
                write(edit(r -> arr(obj(r, "conformance"), "optionalClauses").insert(0, "6.4.1")));
        DeclarationLoader withCatalogue = new DeclarationLoader(new CatalogueLoader().loadBundled());

        DeclarationException e = catchThrowableOfType(DeclarationException.class, () -> withCatalogue.load(file));

        assertThat(e)
                .hasMessage(file + ": conformance.optionalClauses[0]: clause 6.4.1 is a MUST clause; list only "
                        + "the SHOULD and MAY clauses implemented (clause 12.1.2)");
        assertThat(catchThrowableOfType(
                                DeclarationException.class,
                                () -> withCatalogue.load(write(edit(r -> arr(obj(r, "conformance"), "optionalClauses")
                                        .insert(0, "99.1.1")))))
                        .field())
                .isEqualTo("conformance.optionalClauses[0]");
    }

    @Test
    void shouldReportInvalidJsonWithItsPosition() throws Exception {
        Path file = dir.resolve("broken.json");
        Files.writeString(file, "{\n  \"identity\": {,\n}");

        DeclarationException e =
                catchThrowableOfType(DeclarationException.class, () -> new DeclarationLoader().load(file));

        assertThat(e.field()).isEqualTo("(json)");
        assertThat(e.getMessage())
                .startsWith(file + ": (json): not valid JSON: ")
                .contains("line 2");
    }

    @Test
    void shouldReportDuplicateKeys() throws Exception {
        Path file = dir.resolve("twice.json");
        Files.writeString(file, "{\"link\": {\"kind\": \"udp\"}, \"link\": {\"kind\": \"raw\"}}");

        DeclarationException e =
                catchThrowableOfType(DeclarationException.class, () -> new DeclarationLoader().load(file));

        assertThat(e.getMessage()).contains("Duplicate field 'link'");
    }

    @Test
    void shouldReportMissingEmptyAndNonObjectFiles() throws Exception {
        Path missing = dir.resolve("nope.json");
        Path empty = Files.writeString(dir.resolve("empty.json"), "  ");
        Path array = Files.writeString(dir.resolve("array.json"), "[]");

        assertThat(catchThrowableOfType(DeclarationException.class, () -> new DeclarationLoader().load(missing)))
                .hasMessage(missing + ": (file): does not exist");
        assertThat(catchThrowableOfType(DeclarationException.class, () -> new DeclarationLoader().load(empty)))
                .hasMessage(empty + ": (file): is empty");
        assertThat(catchThrowableOfType(DeclarationException.class, () -> new DeclarationLoader().load(array)))
                .hasMessage(array + ": (root): must be an object, found array");
        assertThat(catchThrowableOfType(
                        DeclarationException.class, () -> new DeclarationLoader().loadBundled("no-such-profile")))
                .hasMessage("classpath:/profiles/no-such-profile.json: (file): not found in this build");
    }

    @Test
    void shouldAllowAnEmbeddedProfileWithoutControl() throws Exception {
        DeviceDeclaration profile = new DeclarationLoader().load(write(edit(r -> {
            r.remove("control");
            obj(r, "link").put("kind", "embedded");
        })));

        assertThat(profile.control()).isEmpty();
        assertThat(profile.link().kind()).isEqualTo(LinkKind.EMBEDDED);
        assertThat(profile.withControl(Optional.empty()).link()).isEqualTo(profile.link());
    }

    private static Arguments bad(String name, Consumer<ObjectNode> change, String field, String problem) {
        return Arguments.of(name, change, field, problem);
    }

    private static ObjectNode obj(ObjectNode parent, String name) {
        return (ObjectNode) parent.get(name);
    }

    private static ArrayNode arr(ObjectNode parent, String name) {
        return (ArrayNode) parent.get(name);
    }

    private static String edit(Consumer<ObjectNode> change) throws Exception {
        try (InputStream in = DeclarationLoader.class.getResourceAsStream("/profiles/reference-udp.json")) {
            ObjectNode root = (ObjectNode) FakeAgent.JSON.readTree(in);
            change.accept(root);
            return FakeAgent.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        }
    }

    private Path write(String json) throws Exception {
        return Files.writeString(Files.createTempFile(dir, "profile", ".json"), json);
    }
}
