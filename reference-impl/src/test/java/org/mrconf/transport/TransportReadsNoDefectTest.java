package org.mrconf.transport;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 37: no class of {@code org.mrconf.transport} reads a defect flag. Its decisions go through seams
 * ({@link TransportSeams}); the defects live in {@code org.mrconf.transport.defects}, a class each. Only
 * {@link EndpointConfig} may name the defect catalogue: it carries the active set (for {@code hello}, the soft DUT and
 * the suite's adapter) and hands it to {@code DefectSeams}.
 */
class TransportReadsNoDefectTest {
    private static final String[] DEFECT_PACKAGES = {"org.mrconf.defect..", "org.mrconf.transport.defects.."};

    private static JavaClasses transport;

    @BeforeAll
    static void importTransport() {
        transport = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.mrconf.transport");
    }

    @Test
    void noTransportClassNamesADefect() {
        noClasses()
                .that()
                .resideInAPackage("org.mrconf.transport")
                .and(topLevelNameNotIn(Set.of("EndpointConfig")))
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(DEFECT_PACKAGES)
                .because("the transport's main line reads as the spec says; a defect is a class at a seam")
                .check(transport);
    }

    @Test
    void onlyEndpointConfigNamesTheCatalogue() {
        // The rule above has teeth: the one class it exempts does name the catalogue, and no other class does.
        final Set<String> naming = new TreeSet<>();
        for (final JavaClass javaClass : transport) {
            if (javaClass.getPackageName().equals("org.mrconf.transport")
                    && javaClass.getDirectDependenciesFromSelf().stream()
                            .anyMatch(d -> d.getTargetClass().getPackageName().startsWith("org.mrconf.defect"))) {
                naming.add(topLevelName(javaClass));
            }
        }
        assertThat(naming)
                .as("only EndpointConfig may name the defect catalogue; a transport class asks its seam")
                .containsExactly("EndpointConfig");
    }

    private static DescribedPredicate<JavaClass> topLevelNameNotIn(final Set<String> names) {
        return DescribedPredicate.describe("not one of " + names, c -> !names.contains(topLevelName(c)));
    }

    private static String topLevelName(final JavaClass javaClass) {
        final String simple =
                javaClass.getName().substring(javaClass.getPackageName().length() + 1);
        final int nested = simple.indexOf('$');
        return nested < 0 ? simple : simple.substring(0, nested);
    }
}
