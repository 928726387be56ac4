package org.mrconf.cases.declarations;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.Clause;
import org.mrconf.catalogue.Level;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.DutCounters;
import org.mrconf.dut.DutInfo;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.wire.Opcode;

/**
 * What a device declares (spec section 12.1), checked against itself and against what it does: {@code hello} and the
 * device declaration must agree, every claimed profile's basic behaviour must be there, the conformance statement and the
 * test parameters must be complete and consistent, and the control channel must observe every drop counter. A
 * device whose {@code hello} or profile contradicts what it does is reported here, whatever else passes.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Declarations")
class DeclarationsCase {

    @Test
    @DisplayName("the device claims core, hello and profile claim the same profiles, and each claimed profile works")
    @Verifies("12.1.1")
    void claimedProfilesAreImplemented(final DeviceUnderTest dut) throws Exception {
        final DutInfo hello = dut.control().hello();
        final DeviceDeclaration profile = dut.profile();
        assertThat(hello.profiles()).as("12.1.1: hello claims the core profile").contains(Profile.CORE);
        assertThat(hello.profiles())
                .as("12.1.1: hello and the device declaration claim the same profiles")
                .isEqualTo(profile.conformance().profiles());
        try (Testbed testbed =
                Testbed.open(dut, hello.claims(Profile.MULTIPATH) ? 8 : 1, hello.claims(Profile.STREAMS) ? 16 : 1)) {
            final int lastPath = testbed.connection().spec().paths() - 1;
            final int lastStream = testbed.connection().spec().streams() - 1;
            int mark = testbed.peer().mark();
            final var write =
                    testbed.connection().write(lastStream, Testbed.BASE, testbed.key(), new byte[64], lastPath);
            testbed.peer()
                    .await(
                            mark,
                            PacketMatcher.expect()
                                    .ack()
                                    .path(lastPath)
                                    .covers(write.get(0).psn()),
                            Testbed.WAIT);
            if (hello.claims(Profile.READ)) {
                final byte[] data = Testbed.randomBytes(256, 61);
                testbed.control().writeRegion(testbed.key(), Testbed.BASE + 4096, data);
                testbed.connection().autoAck(true);
                mark = testbed.peer().mark();
                testbed.connection().readRequest(0, Testbed.BASE + 4096, testbed.key(), data.length, 0x61, 0);
                final var response = testbed.peer()
                        .await(
                                mark,
                                PacketMatcher.expect()
                                        .data()
                                        .opcode(Opcode.READ_RESPONSE)
                                        .sinkHandle(0x61),
                                Testbed.WAIT);
                assertThat(response.data().orElseThrow().payload())
                        .as("12.1.1: the device claims read, so it answers a READ_REQUEST")
                        .isEqualTo(data);
            }
            if (hello.claims(Profile.IMMEDIATE)) {
                testbed.connection().writeWithImmediate(0, Testbed.BASE + 8192, testbed.key(), 0xABCD, new byte[32], 0);
                final var completion = testbed.control().pollCompletions(4, Testbed.WAIT);
                assertThat(completion)
                        .as("12.1.1: the device claims immediate, so a WRITE_WITH_IMMEDIATE completes with its data")
                        .anyMatch(c -> c.immediate() == 0xABCD);
            }
        }
    }

    @Test
    @DisplayName(
            "the conformance statement names the implementation, its profiles, optional clauses and limits, as hello does")
    @Verifies("12.1.2")
    void conformanceStatementIsComplete(final DeviceUnderTest dut) throws Exception {
        final DutInfo hello = dut.control().hello();
        final DeviceDeclaration profile = dut.profile();
        for (final var identity : List.of(hello.implementation(), profile.identity())) {
            assertThat(List.of(identity.vendor(), identity.model(), identity.firmware(), identity.driver()))
                    .as("12.1.2: vendor, model, firmware and driver are named (%s)", identity)
                    .allSatisfy(field -> assertThat(field).isNotBlank());
        }
        assertThat(hello.implementation().vendor())
                .as("12.1.2: hello and the profile name the same vendor")
                .isEqualTo(profile.identity().vendor());
        assertThat(hello.implementation().model())
                .as("12.1.2: hello and the profile name the same model")
                .isEqualTo(profile.identity().model());
        final var catalogue = new CatalogueLoader().loadBundled();
        for (final String id : profile.conformance().optionalClauses()) {
            final Clause clause = catalogue.find(id).orElse(null);
            assertThat(clause)
                    .as("12.1.2: optional clause %s of the statement exists in the spec", id)
                    .isNotNull();
            assertThat(clause.level())
                    .as("12.1.2: %s is listed as an implemented SHOULD or MAY clause", id)
                    .isNotEqualTo(Level.MUST);
        }
        assertThat(hello.limits().maxPaths())
                .as("12.1.2: hello and the profile state the same maximum paths")
                .isEqualTo(profile.conformance().limits().maxPaths());
        assertThat(hello.limits().maxStreams())
                .as("12.1.2: hello and the profile state the same maximum streams")
                .isEqualTo(profile.conformance().limits().maxStreams());
        if (hello.claims(Profile.MULTIPATH)) {
            assertThat(hello.limits().maxPaths())
                    .as("12.1.2, Table 12-1: multipath means at least 8 paths")
                    .isGreaterThanOrEqualTo(8);
        }
        if (hello.claims(Profile.STREAMS)) {
            assertThat(hello.limits().maxStreams())
                    .as("12.1.2, Table 12-1: streams means at least 16 streams")
                    .isGreaterThanOrEqualTo(16);
        }
    }

    @Test
    @DisplayName(
            "the test parameters are complete and consistent with hello: port, MTU, paths, ordered timers, a tolerance")
    @Verifies("12.1.3")
    void testParametersAreConsistent(final DeviceUnderTest dut) throws Exception {
        final DutInfo hello = dut.control().hello();
        final DeviceDeclaration.Parameters parameters = dut.profile().parameters();
        final DeviceDeclaration.Timers timers = parameters.timers();
        assertThat(hello.udpPort())
                .as("12.1.3: hello's MetaRoCE port is the declared one")
                .isEqualTo(parameters.dut().getPort());
        assertThat(hello.limits().mtu())
                .as("12.1.3: hello's MTU is the declared MTU")
                .isEqualTo(parameters.mtu());
        assertThat(parameters.paths())
                .as("12.1.3: the declared path count is within the device's limit")
                .isBetween(1, hello.limits().maxPaths());
        assertThat(timers.minRto()).as("12.1.3: minimum RTO <= initial RTO").isLessThanOrEqualTo(timers.initialRto());
        assertThat(timers.initialRto()).as("12.1.3: initial RTO <= maximum RTO").isLessThanOrEqualTo(timers.maxRto());
        assertThat(timers.ackDelay().isNegative())
                .as("12.1.3: an ACK delay is declared")
                .isFalse();
        assertThat(timers.ackCoalescing())
                .as("12.1.3: an ACK coalescing count is declared")
                .isPositive();
        assertThat(timers.unhealthyThreshold())
                .as("12.1.3: an unhealthy-path threshold is declared")
                .isPositive();
        assertThat(timers.connectionTimeout().isZero())
                .as("12.1.3: a connection timeout is declared")
                .isFalse();
        assertThat(timers.tolerance().isZero() || timers.tolerance().isNegative())
                .as("12.1.3: the timing tolerance of the device's timers is declared")
                .isFalse();
        // The declared MTU is the one the device works with: a WRITE of a full-MTU packet is placed.
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            final int payload = testbed.connection().maxPayload(Opcode.WRITE);
            final byte[] data = Testbed.randomBytes(payload, 62);
            final int mark = testbed.peer().mark();
            final var write = testbed.connection().write(0, Testbed.BASE, testbed.key(), data, 0);
            assertThat(write)
                    .as("12.1.3: the declared MTU carries a %d-byte WRITE in one packet", payload)
                    .hasSize(1);
            testbed.peer()
                    .await(
                            mark,
                            PacketMatcher.expect()
                                    .ack()
                                    .path(0)
                                    .covers(write.get(0).psn()),
                            Testbed.WAIT);
            TesterMessages.assertMemory(testbed, "12.1.3: a full-MTU WRITE", testbed.key(), Testbed.BASE, data);
        }
    }

    @Test
    @DisplayName("the control channel reports every standard drop and rejection counter, and the counters move")
    @Verifies("12.1.4")
    void everyCounterIsObservable(final Testbed testbed) throws Exception {
        final var before = testbed.counters();
        assertThat(DutCounters.missingStandard(before))
                .as("12.1.4: a counter for each drop and rejection reason of the draft")
                .isEmpty();
        final int mark = testbed.peer().mark();
        final var write = testbed.connection().write(0, Testbed.BASE, testbed.key(), new byte[16], 0);
        testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect().ack().path(0).covers(write.get(0).psn()),
                        Testbed.WAIT);
        testbed.peer()
                .send(testbed.write(0, Testbed.BASE, testbed.key(), new byte[16])
                        .connection(0x0BAD_0BADL));
        // Judged once the device has counted the drop (it answers nothing to wait for).
        final long dropped = testbed.awaitGrowth(before, DutCounters.RX_UNKNOWN_CONNECTION, 1);
        assertThat(testbed.grew(before, DutCounters.RX_PACKETS))
                .as("12.1.4: rx_packets counts what arrived")
                .isGreaterThanOrEqualTo(2);
        assertThat(dropped).as("12.1.4: a drop shows in its counter").isEqualTo(1);
        // Regions can be registered, written, read and invalidated; connections created and destroyed (the testbed).
        final long key = testbed.control()
                .registerRegion(
                        Testbed.BASE + 8L * Testbed.REGION, 4096, EnumSet.of(org.mrconf.dut.RegionAccess.LOCAL_WRITE));
        final byte[] bytes = Testbed.randomBytes(64, 63);
        testbed.control().writeRegion(key, Testbed.BASE + 8L * Testbed.REGION, bytes);
        TesterMessages.assertMemory(
                testbed, "12.1.4: write_region then read_region", key, Testbed.BASE + 8L * Testbed.REGION, bytes);
        testbed.control().invalidateRegion(key);
    }
}
