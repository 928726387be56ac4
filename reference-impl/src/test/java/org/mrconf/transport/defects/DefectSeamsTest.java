package org.mrconf.transport.defects;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
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
