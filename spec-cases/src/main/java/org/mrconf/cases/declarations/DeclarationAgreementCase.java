package org.mrconf.cases.declarations;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.NotApplicable;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.DutInfo;

/**
 * Where declarations live (spec clauses 12.1.5 and 12.1.6): the declaration file and the agent's {@code hello} must
 * declare the same claims and the same parameters, each in its own units, so that applicability and every timing
 * judgement rest on one set of values. These cases send no packet: they compare two declarations of the device.
 *
 * <p>Without a declaration file the tester judges by {@code hello} alone (clause 12.1.5), so the comparison cannot
 * disagree; what is still checked then is that {@code hello} gives every declaration the clauses require.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Declarations agree")
class DeclarationAgreementCase {

    @Test
    @DisplayName(
            "hello and the declaration file declare the same profiles, optional clauses, limits, tolerance and timers")
    @Verifies("12.1.5")
    void helloAndProfileDeclareTheSame(final DeviceUnderTest dut) throws Exception {
        final DutInfo hello = dut.control().hello();
        final DeviceDeclaration profile = dut.profile();
        final DeviceDeclaration.Conformance file = profile.conformance();
        final Disagreements found = new Disagreements();
        found.same("12.1.5: profiles", hello.profiles(), file.profiles());
        found.same(
                "12.1.5: optionalClauses",
                new TreeSet<>(hello.optionalClauses()),
                new TreeSet<>(file.optionalClauses()));
        found.same("12.1.5: limits", hello.limits(), file.limits());
        found.same(
                "12.1.5: reorderTolerance (hello in ns, the file in us)",
                hello.declarations().reorderTolerance(),
                file.reorderTolerance());
        found.require(
                "12.1.5: hello gives the test parameters (its parameters object)",
                hello.declarations().timers().isPresent(),
                "missing");
        found.require(
                "12.1.5 (Table 12-2), 9.1.9: the declaration file declares receiverNotReadyRetryUs",
                profile.parameters().timers().receiverNotReadyRetry().isPresent(),
                "missing");
        hello.declarations()
                .timers()
                .ifPresent(timers -> found.same(
                        "12.1.5: parameters: the timers and their tolerance (hello in ns, the file in us)",
                        timers,
                        profile.parameters().timers()));
        found.assertNone();
    }

    @Test
    @DisplayName("a device claiming congestion declares its six congestion parameters, the same in hello and the file")
    @Verifies("12.1.6")
    void congestionParametersAreDeclared(final DeviceUnderTest dut) throws Exception {
        final DutInfo hello = dut.control().hello();
        if (!dut.profile().claims(Profile.CONGESTION)) {
            throw NotApplicable.because("the device does not claim the congestion profile");
        }
        final DeviceDeclaration.Congestion file = dut.profile().parameters().congestion();
        assertThat(file.undeclared())
                .as("12.1.6: parameters.congestion of the declaration file declares every field")
                .isEmpty();
        assertThat(hello.declarations().congestion())
                .as("12.1.6: hello's parameters give linkRateBitsPerSecond, targetUtilization, rateHintIntervalNs and"
                        + " decreaseFactor")
                .isPresent();
        final DeviceDeclaration.Congestion said =
                hello.declarations().congestion().orElseThrow();
        assertThat(said.undeclared())
                .as("12.1.6: hello's parameters give initialPathWindowPackets and initialConnectionWindowPackets")
                .isEmpty();
        final Disagreements found = new Disagreements();
        found.same(
                "12.1.6: link rate (hello bit/s / 10^6 against the file's Mbit/s)",
                said.linkRateMbps(),
                file.linkRateMbps());
        found.same("12.1.6: target utilisation", said.targetUtilization(), file.targetUtilization());
        found.same("12.1.6: hint interval (hello ns, the file us)", said.hintInterval(), file.hintInterval());
        found.same(
                "8.2.4: rate-hint active window (hello ns, the file us; absent, the hint interval)",
                said.activeWindow(),
                file.activeWindow());
        found.same("12.1.6: decrease factor", said.decreaseFactor(), file.decreaseFactor());
        found.same("12.1.6: initial path window, packets", said.initialPathWindow(), file.initialPathWindow());
        found.require(
                "12.1.6: initial path window between 1 and 256 packets",
                said.initialPathWindow() >= 1 && said.initialPathWindow() <= 256,
                said.initialPathWindow());
        found.same(
                "12.1.6: initial connection window, packets",
                said.initialConnectionWindow(),
                file.initialConnectionWindow());
        found.require(
                "12.1.6: initial connection window at least 1 packet",
                said.initialConnectionWindow() >= 1,
                said.initialConnectionWindow());
        found.same(
                "10.1.2: maximum connection window, packets (optional in both; 0: none declared)",
                said.maxConnectionWindow(),
                file.maxConnectionWindow());
        found.require(
                "12.1.6: target utilisation above 0 and at most 1",
                said.targetUtilization() > 0 && said.targetUtilization() <= 1,
                said.targetUtilization());
        found.require(
                "12.1.6: decrease factor above 0 and below 1",
                said.decreaseFactor() > 0 && said.decreaseFactor() < 1,
                said.decreaseFactor());
        found.assertNone();
    }
}
