package org.mrconf.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
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
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The extension points are marked and listed (issue #14): every public top-level type of the packages vendors and
 * contributors code against carries an {@code @API} status, and {@code docs/extension-points.md} names those packages
 * and exactly the types marked MAINTAINED or STABLE, so neither the marks nor the list can drift.
 */
class ApiMarksTest {
    /** The packages whose public types are extension points (each package alone, not its subpackages). */
    static final List<String> EXTENSION_PACKAGES = List.of(
            "org.mrconf.dut",
            "org.mrconf.cases",
            "org.mrconf.peer",
            "org.mrconf.catalogue",
            "org.mrconf.pcap",
            "org.mrconf.verdict",
            "org.mrconf.runner");

    private static final String FIXTURE = "org.mrconf.architecture.apifixture";
    private static final Pattern CODE = Pattern.compile("`([A-Z][A-Za-z]+)`");

    private static JavaClasses production;

    @BeforeAll
    static void importClasses() {
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                // The runner's test-jar is on this module's test classpath: its classes are tests too.
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages(EXTENSION_PACKAGES);
    }

    /**
     * Every public top-level type of {@code packages} has an {@code @API} mark. Reason: a vendor must see what they
     * may rely on; a type that is nobody's extension point is package-private or marked INTERNAL.
     */
    static ArchRule everyPublicTypeIsMarked(final String... packages) {
        return classes()
                .that()
                .resideInAnyPackage(packages)
                .and()
                .arePublic()
                .and()
                .areTopLevelClasses()
                .should()
                .beAnnotatedWith(API.class)
                .because("vendors and contributors must see what they may rely on (docs/extension-points.md)");
    }

    @Test
    void shouldMarkEveryPublicTypeOfTheExtensionPackages() {
        assertThat(production.contain("org.mrconf.dut.DutControl"))
                .as("the import sees the modules")
                .isTrue();

        everyPublicTypeIsMarked(EXTENSION_PACKAGES.toArray(String[]::new)).check(production);
    }

    @Test
    void shouldFailOnAnUnmarkedPublicTypeOnly() {
        final JavaClasses fixture = new ClassFileImporter().importPackages(FIXTURE);

        assertThatThrownBy(() -> everyPublicTypeIsMarked(FIXTURE).check(fixture))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Architecture Violation")
                .hasMessageContaining(FIXTURE + ".Unmarked")
                .hasMessageNotContaining(FIXTURE + ".Marked")
                .hasMessageNotContaining(FIXTURE + ".Hidden");
    }

    @Test
    void shouldListThePackagesAndExactlyTheMaintainedTypesInTheExtensionPointsPage() throws IOException {
        final String section = extensionPointsSection();
        final Set<String> committed = new TreeSet<>();
        for (final JavaClass type : production) {
            if (isExtensionPoint(type) && type.isAnnotatedWith(API.class)) {
                final API.Status status = type.getAnnotationOfType(API.class).status();
                if (status == API.Status.MAINTAINED || status == API.Status.STABLE) {
                    committed.add(type.getSimpleName());
                }
            }
        }
        final Set<String> listed = new TreeSet<>();
        final String maintained =
                section.substring(section.indexOf("**MAINTAINED**"), section.indexOf("**EXPERIMENTAL**"));
        final Matcher name = CODE.matcher(maintained);
        while (name.find()) {
            listed.add(name.group(1));
        }

        assertThat(committed).as("types marked MAINTAINED or STABLE").contains("DutControl", "WireLink", "Verdict");
        assertThat(listed).as("the MAINTAINED list of docs/extension-points.md").isEqualTo(committed);
        for (final String pkg : EXTENSION_PACKAGES) {
            assertThat(section).as("docs/extension-points.md names the package").contains("`" + pkg + "`");
        }
    }

    private static boolean isExtensionPoint(final JavaClass type) {
        return EXTENSION_PACKAGES.contains(type.getPackageName())
                && type.getModifiers().contains(com.tngtech.archunit.core.domain.JavaModifier.PUBLIC)
                && type.isTopLevelClass();
    }

    /** The page that lists the extension points (it was the README's "Extension points" section until issue 35). */
    private static String extensionPointsSection() throws IOException {
        final String page =
                Files.readString(Path.of(System.getProperty("mrconf.root", "../.."), "docs", "extension-points.md"));
        assertThat(page)
                .as("docs/extension-points.md lists the MAINTAINED types, then the EXPERIMENTAL ones")
                .contains("**MAINTAINED**", "**EXPERIMENTAL**");
        assertThat(page.indexOf("**MAINTAINED**")).isLessThan(page.indexOf("**EXPERIMENTAL**"));
        return page;
    }
}
