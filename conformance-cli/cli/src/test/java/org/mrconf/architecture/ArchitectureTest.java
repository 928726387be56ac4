package org.mrconf.architecture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs the layout rules ({@link ArchitectureRules}) on the main classes of every module, and shows on a tree of
 * deliberate violations that each rule fails when it is broken. This module depends on all the others, so it sees
 * the whole tree.
 */
class ArchitectureTest {
    private static final String ROOT = "org.mrconf";
    private static final String FIXTURE = "org.mrconf.architecture.fixture";

    private static JavaClasses production;
    private static JavaClasses violations;

    @BeforeAll
    static void importClasses() {
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                // The runner's test-jar is on this module's test classpath: its classes are tests too.
                .withImportOption(location -> !location.contains("-tests.jar"))
                // No DO_NOT_INCLUDE_JARS: under `mvn verify` the other modules are on the classpath as their
                // packaged jars, not target/classes; importPackages(ROOT) still reads only this project's classes.
                .importPackages(ROOT);
        violations = new ClassFileImporter().importPackages(FIXTURE);
    }

    static Stream<Arguments> rules() {
        return Stream.of(
                rule("wire depends on the JDK only", ArchitectureRules::codecDependsOnTheJdkOnly),
                rule("the reference never depends on the suite", ArchitectureRules::referenceNeverDependsOnTheSuite),
                rule(
                        "cases reach a device only through the DUT interfaces",
                        ArchitectureRules::casesReachTheDeviceOnlyThroughTheDutInterfaces),
                rule(
                        "report writers depend on verdicts, not on cases",
                        ArchitectureRules::reportWritersDependOnVerdictsNotOnCases),
                rule("libraries never import Picocli", ArchitectureRules::librariesNeverImportPicocli),
                rule("only the adapter imports the reference", ArchitectureRules::onlyTheAdapterImportsTheReference),
                rule(
                        "self-validation reads only the defect and variant catalogues",
                        ArchitectureRules::selfValidationReadsOnlyTheDefectCatalogue),
                rule(
                        "the runner library stands below its users",
                        ArchitectureRules::theRunnerLibraryStandsBelowItsUsers),
                rule(
                        "commands open user files through UserFiles",
                        ArchitectureRules::commandsOpenUserFilesThroughUserFiles),
                rule("only live capture uses Pcap4J", ArchitectureRules::onlyLiveCaptureUsesPcap4j),
                rule("no package cycles", ArchitectureRules::noPackageCycles));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void shouldHoldOnTheTree(final String name, final Function<String, ArchRule> rule) {
        assertThat(production.contain(ROOT + ".wire.PacketDecoder"))
                .as("the import sees the modules")
                .isTrue();
        rule.apply(ROOT).check(production);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void shouldFailOnATreeThatBreaksIt(final String name, final Function<String, ArchRule> rule) {
        assertThatThrownBy(() -> rule.apply(FIXTURE).check(violations))
                .as("rule '%s' on the deliberate violations", name)
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Architecture Violation");
    }

    /**
     * A reader should never have to work out which of two same-named types is meant (issue 37): no two top-level types
     * of the main code, in any module, share a simple name. Where the suite and the reference each need their own type
     * for one idea (the reference's {@code WorkCompletionStatus}, the suite's {@code CompletionStatus}), the names say
     * whose it is.
     */
    @Test
    void shouldGiveEveryTopLevelMainTypeItsOwnSimpleName() {
        final Map<String, Set<String>> byName = new TreeMap<>();
        for (final JavaClass type : production) {
            if (type.isTopLevelClass() && !type.getSimpleName().equals("package-info")) {
                byName.computeIfAbsent(type.getSimpleName(), k -> new TreeSet<>())
                        .add(type.getName());
            }
        }
        assertThat(byName).as("the main types").containsKeys("DutControl", "Endpoint", "DataPacket", "RunCommand");
        final List<String> shared = byName.values().stream()
                .filter(names -> names.size() > 1)
                .map(Set::toString)
                .toList();
        assertThat(shared).as("top-level main types that share a simple name").isEmpty();
    }

    @Test
    void shouldDeclareNoDependencyInTheCodecPomButForItsTests() throws IOException {
        // The rule above sees bytecode; the pom is where a dependency would first creep in. Test-scoped ones (the
        // spec-table test's Markdown reader) never reach the codec's users.
        final String pom = Files.readString(Path.of(System.getProperty("mrconf.root", "../.."), "wire", "pom.xml"));
        final Matcher dependency = Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL)
                .matcher(pom);
        while (dependency.find()) {
            assertThat(dependency.group(1)).as("a dependency of the codec").contains("<scope>test</scope>");
        }
    }

    private static Arguments rule(final String name, final Function<String, ArchRule> rule) {
        return Arguments.of(name, rule);
    }
}
