package org.mrconf.cases.declarations;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.TreeSet;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.NotApplicable;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DutInfo;
import org.mrconf.dut.DutProfile;

/**
 * Where declarations live (spec clauses 12.1.5 and 12.1.6): the DUT profile file and the agent's {@code hello} must
 * declare the same claims and the same parameters, each in its own units, so that applicability and every timing
 * judgement rest on one set of values. These cases send no packet: they compare two declarations of the device.
 *
 * <p>Without a profile file the tester judges by {@code hello} alone (clause 12.1.5), so the comparison cannot
 * disagree; what is still checked then is that {@code hello} gives every declaration the clauses require.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Declarations agree")
class DeclarationAgreementCase {

    @Test
    @DisplayName("hello and the profile file declare the same profiles, optional clauses, limits, tolerance and timers")
    @Verifies("12.1.5")
    void helloAndProfileDeclareTheSame(final DeviceUnderTest dut) throws Exception {
        final DutInfo hello = dut.control().hello();
        final DutProfile profile = dut.profile();
        final DutProfile.Conformance file = profile.conformance();
        final SoftAssertions soft = new SoftAssertions();
        soft.assertThat(hello.profiles()).as("12.1.5: profiles").isEqualTo(file.profiles());
        soft.assertThat(new TreeSet<>(hello.optionalClauses()))
                .as("12.1.5: optionalClauses")
                .isEqualTo(new TreeSet<>(file.optionalClauses()));
        soft.assertThat(hello.limits()).as("12.1.5: limits").isEqualTo(file.limits());
        soft.assertThat(hello.declarations().reorderTolerance())
                .as("12.1.5: reorderTolerance (hello in ns, the file in us)")
                .isEqualTo(file.reorderTolerance());
        soft.assertThat(hello.declarations().timers())
                .as("12.1.5: hello gives the test parameters (its parameters object)")
                .isPresent();
        hello.declarations()
                .timers()
                .ifPresent(timers -> soft.assertThat(timers)
                        .as("12.1.5: parameters: the timers and their tolerance (hello in ns, the file in us)")
                        .isEqualTo(profile.parameters().timers()));
        soft.assertAll();
    }

    @Test
    @DisplayName("a device claiming congestion declares its six congestion parameters, the same in hello and the file")
    @Verifies("12.1.6")
    void congestionParametersAreDeclared(final DeviceUnderTest dut) throws Exception {
        final DutInfo hello = dut.control().hello();
        if (!dut.profile().claims(Profile.CONGESTION)) {
            throw NotApplicable.because("the device does not claim the congestion profile");
        }
        final DutProfile.Congestion file = dut.profile().parameters().congestion();
        assertThat(file.undeclared())
                .as("12.1.6: parameters.congestion of the profile file declares every field")
                .isEmpty();
        assertThat(hello.declarations().congestion())
                .as("12.1.6: hello's parameters give linkRateBitsPerSecond, targetUtilization, rateHintIntervalNs and"
                        + " decreaseFactor")
                .isPresent();
        final DutProfile.Congestion said = hello.declarations().congestion().orElseThrow();
        assertThat(said.undeclared())
                .as("12.1.6: hello's parameters give initialPathWindowPackets and initialConnectionWindowPackets")
                .isEmpty();
        final SoftAssertions soft = new SoftAssertions();
        soft.assertThat(said.linkRateMbps())
                .as("12.1.6: link rate (hello bit/s / 10^6 against the file's Mbit/s)")
                .isEqualTo(file.linkRateMbps());
        soft.assertThat(said.targetUtilization())
                .as("12.1.6: target utilisation")
                .isEqualTo(file.targetUtilization());
        soft.assertThat(said.hintInterval())
                .as("12.1.6: hint interval (hello ns, the file us)")
                .isEqualTo(file.hintInterval());
        soft.assertThat(said.decreaseFactor()).as("12.1.6: decrease factor").isEqualTo(file.decreaseFactor());
        soft.assertThat(said.initialPathWindow())
                .as("12.1.6: initial path window, packets")
                .isEqualTo(file.initialPathWindow())
                .isBetween(1, 256);
        soft.assertThat(said.initialConnectionWindow())
                .as("12.1.6: initial connection window, packets")
                .isEqualTo(file.initialConnectionWindow())
                .isPositive();
        soft.assertThat(said.targetUtilization())
                .as("12.1.6: target utilisation above 0 and at most 1")
                .isGreaterThan(0)
                .isLessThanOrEqualTo(1);
        soft.assertThat(said.decreaseFactor())
                .as("12.1.6: decrease factor above 0 and below 1")
                .isGreaterThan(0)
                .isLessThan(1);
        soft.assertAll();
    }
}
