package org.mrconf.architecture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
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
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
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

    @Test
    void shouldDeclareNoDependencyInTheCodecPom() throws IOException {
        // The rule above sees bytecode; the pom is where a dependency would first creep in.
        assertThat(Files.readString(Path.of("..", "wire", "pom.xml"))).doesNotContain("<dependency>");
    }

    private static Arguments rule(final String name, final Function<String, ArchRule> rule) {
        return Arguments.of(name, rule);
    }
}
