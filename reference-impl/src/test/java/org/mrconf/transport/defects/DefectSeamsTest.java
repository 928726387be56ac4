package org.mrconf.transport.defects;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.mrconf.defect.Defect;
import org.mrconf.defect.Defects;
import org.mrconf.transport.OutboundSeam;
import org.mrconf.transport.TransportSeams;
import org.mrconf.wire.NackCode;

class DefectSeamsTest {
    @Test
    void eachDefectAtASeamIsTheClassNamedForIt() {
        assertThat(DefectSeams.seamClasses()).isNotEmpty().allSatisfy((defect, type) -> {
            assertThat(type.getSimpleName()).isEqualTo(className(defect));
            assertThat(type.getPackageName()).startsWith("org.mrconf.transport.defects.");
        });
    }

    /**
     * Every defect of the catalogue is committed: by its class at a transport seam, or (for the few that live outside
     * the transport: the agent's reports, the soft DUT's sockets) by a reference class that reads its flag. A defect
     * in neither place would be a catalogue entry the reference never commits, so the mapping cannot drift.
     */
    @Test
    void everyDefectIsCommittedAtASeamOrOutsideTheTransport() {
        final Map<Defect, Class<?>> atSeams = DefectSeams.seamClasses();
        final Set<String> readOutside = new TreeSet<>();
        for (final JavaClass javaClass : new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.mrconf")) {
            if (javaClass.getPackageName().startsWith("org.mrconf.transport")
                    || javaClass.getPackageName().startsWith("org.mrconf.defect")) {
                continue;
            }
            for (final JavaFieldAccess access : javaClass.getFieldAccessesFromSelf()) {
                if (access.getTargetOwner().isEquivalentTo(Defect.class)) {
                    readOutside.add(access.getName());
                }
            }
        }
        final Set<Defect> nowhere = new TreeSet<>();
        for (final Defect defect : Defect.values()) {
            if (!atSeams.containsKey(defect) && !readOutside.contains(defect.name())) {
                nowhere.add(defect);
            }
        }
        assertThat(nowhere)
                .as("defects committed neither at a transport seam nor outside the transport")
                .isEmpty();
        assertThat(atSeams).as("most defects live at the transport's seams").hasSizeGreaterThan(readOutside.size());
    }

    @Test
    void eachDefectAtASeamChangesItsSeam() {
        for (final Defect defect : DefectSeams.seamClasses().keySet()) {
            assertThat(DefectSeams.of(Defects.of(defect))).as(defect.name()).isNotEqualTo(TransportSeams.CORRECT);
        }
    }

    @Test
    void theCleanReferenceGetsTheSpecsAnswers() {
        assertThat(DefectSeams.of(Defects.NONE)).isSameAs(TransportSeams.CORRECT);
        assertThat(DefectSeams.of(Defects.of(Defect.HELLO_OMITS_FIRMWARE)).outbound())
                .isSameAs(OutboundSeam.CORRECT);
    }

    @Test
    void severalDefectsAtOneSeamAreAllCommitted() {
        final OutboundSeam both = DefectSeams.of(Defects.of(
                        Defect.BOUNDS_WRONG_CODE, Defect.RECEIVER_NOT_READY_WRONG_CODE, Defect.NACK_ON_PATH_ZERO))
                .outbound();
        assertThat(both.nackCode(NackCode.BOUNDS)).isEqualTo(NackCode.REMOTE_ACCESS);
        assertThat(both.nackCode(NackCode.RECEIVER_NOT_READY)).isEqualTo(NackCode.INVALID_REQUEST);
        assertThat(both.nackCode(NackCode.PSN_OUT_OF_WINDOW)).isEqualTo(NackCode.PSN_OUT_OF_WINDOW);
        assertThat(both.nackPathId(3)).isZero();
        assertThat(OutboundSeam.CORRECT.nackPathId(3)).isEqualTo(3);
    }

    private static String className(final Defect defect) {
        final StringBuilder name = new StringBuilder();
        for (final String word : defect.name().toLowerCase(Locale.ROOT).split("_")) {
            name.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
        }
        return name.toString();
    }
}
