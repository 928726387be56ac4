package org.mrconf.cases.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.Drops;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Kind;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DutCounters;
import org.mrconf.dut.DutLimits;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.wire.Opcode;

/**
 * Section 3: a connection has paths below it (each with its own PSN space and receive state) and streams above
 * it; the DUT takes every agreed path and stream, up to what it declares, and packets of any message or stream on
 * any path. The DUT is the receiver here: each check sends WRITEs and reads back the region and the ACKs.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Connections, paths and streams")
class PathsAndStreamsCase {
    private static final int CHUNK = 64;

    @Test
    @DisplayName("a connection of the declared largest path count works on its first, a middle and its last path,"
            + " and a path id beyond the agreed count is dropped and counted")
    @Verifies("3.1.1")
    void everyAgreedPathWorks(final DeviceUnderTest dut) throws Exception {
        final int paths = limits(dut).maxPaths();
        assertThat(paths).as("3.1.1: declared largest number of paths").isBetween(1, 256);
        try (Testbed testbed = Testbed.open(dut, paths, 1)) {
            for (final int path : new int[] {0, paths / 2, paths - 1}) {
                writeAndAwaitAck(testbed, path, path * CHUNK, "3.1.1: path " + path + " of " + paths);
            }
            if (paths < 256) {
                final var before = testbed.counters();
                final int mark = testbed.peer().mark();
                testbed.peer()
                        .send(PacketBuilder.write()
                                .connection(Testbed.DUT_CONNECTION)
                                .path(paths)
                                .psn(0)
                                .msn(testbed.connection().takeMsn(0))
                                .messageLength(CHUNK)
                                .remoteAddress(Testbed.BASE + 300 * CHUNK)
                                .remoteKey(testbed.key())
                                .payload(Testbed.randomBytes(CHUNK, 3))
                                .ackRequest());
                testbed.peer().assertNone(mark, PacketMatcher.expect().ack().path(paths), Testbed.QUIET);
                assertThat(testbed.grew(before, DutCounters.RX_INVALID_PATH))
                        .as("3.1.1: path id %d beyond the %d agreed is dropped and counted", paths, paths)
                        .isEqualTo(1);
                assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE + 300 * CHUNK, CHUNK))
                        .containsOnly(0);
            }
        }
    }

    @Test
    @DisplayName("each path keeps its own PSN space and receive state: PSN 0 on path 1 is new after PSNs 0 to 3 on"
            + " path 0, a gap on one path shows only in that path's ACKs")
    @Verifies("3.1.2")
    void pathStateIsIndependent(final Testbed testbed) throws Exception {
        final PeerConnection connection = testbed.connection();
        final int mark = testbed.peer().mark();
        for (int i = 0; i < 4; i++) {
            connection.sendNew(chunk(testbed, 0, i * CHUNK), 0);
        }
        testbed.peer().await(mark, org.mrconf.cases.DutTraffic.ackOf(0).cumulativePsn(4), Testbed.WAIT);
        // A gap on path 0: PSN 4 is held back, PSN 5 arrives.
        connection.setNextPsn(0, 5);
        connection.sendNew(chunk(testbed, 0, 5 * CHUNK), 0);
        testbed.peer()
                .await(
                        mark,
                        org.mrconf.cases.DutTraffic.ackOf(0).cumulativePsn(4).sackIncludes(1),
                        Testbed.WAIT);

        final int path1 = testbed.peer().mark();
        connection.sendNew(chunk(testbed, 1, 6 * CHUNK), 1);
        final var ack = testbed.peer()
                .await(path1, org.mrconf.cases.DutTraffic.ackOf(1).covers(0), Testbed.WAIT)
                .ack()
                .orElseThrow();
        assertThat(ack.cumulativePsn())
                .as("3.1.2: path 1's cumulative PSN after its PSN 0 alone")
                .isEqualTo(1);
        assertThat(ack.sackBits())
                .as("3.1.2: path 0's gap does not show on path 1")
                .isEmpty();
        assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE + 6 * CHUNK, CHUNK))
                .as("3.1.2: PSN 0 of path 1 placed although path 0 is past it")
                .isEqualTo(Testbed.randomBytes(CHUNK, 6 * CHUNK));
    }

    @Test
    @DisplayName("a multipath device supports 8 paths: a WRITE on each is placed and acknowledged on its path")
    @Verifies("3.1.3")
    void multipathDeviceHasEightPaths(final DeviceUnderTest dut) throws Exception {
        Assumptions.assumeTrue(dut.profile().claims(Profile.MULTIPATH), "the device does not claim multipath");
        assertThat(limits(dut).maxPaths()).as("3.1.3: declared paths").isGreaterThanOrEqualTo(8);
        try (Testbed testbed = Testbed.open(dut, 8, 1)) {
            for (int path = 7; path >= 0; path--) {
                writeAndAwaitAck(testbed, path, path * CHUNK, "3.1.3: path " + path + " of 8");
            }
        }
    }

    @Test
    @DisplayName("stream 0 and the declared last stream of a connection both carry messages")
    @Verifies("3.1.4")
    void streamZeroAndTheLastDeclaredStreamWork(final DeviceUnderTest dut) throws Exception {
        final int streams = limits(dut).maxStreams();
        assertThat(streams).as("3.1.4: declared largest number of streams").isBetween(1, 65536);
        try (Testbed testbed = Testbed.open(dut, 2, streams)) {
            for (final int stream : new int[] {streams - 1, 0}) {
                writeOnStream(testbed, stream, 1, "3.1.4: stream " + stream + " of " + streams);
            }
        }
    }

    @Test
    @DisplayName("a device claiming streams supports 16 streams: a WRITE on each, last stream first, is placed")
    @Verifies("3.1.5")
    void streamsDeviceHasSixteenStreams(final DeviceUnderTest dut) throws Exception {
        Assumptions.assumeTrue(dut.profile().claims(Profile.STREAMS), "the device does not claim streams");
        assertThat(limits(dut).maxStreams()).as("3.1.5: declared streams").isGreaterThanOrEqualTo(16);
        try (Testbed testbed = Testbed.open(dut, 2, 16)) {
            for (int stream = 15; stream >= 0; stream--) {
                writeOnStream(testbed, stream, stream % 2, "3.1.5: stream " + stream + " of 16");
            }
        }
    }

    @Test
    @DisplayName("a message's packets on a mix of paths, and each stream's messages on every path, are all accepted")
    @Verifies("3.1.6")
    void messagesAndStreamsOnAnyPath(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 3, 3)) {
            final PeerConnection connection = testbed.connection();
            final int payload = connection.maxPayload(Opcode.WRITE);
            final byte[] data = Testbed.randomBytes(3 * payload, 31);
            final int mark = testbed.peer().mark();
            // One message of three packets on paths 2, 0, 1: every packet on a path other than its neighbours'.
            connection.write(0, Testbed.BASE, testbed.key(), data, 2, 0, 1);
            for (int path = 0; path < 3; path++) {
                testbed.peer()
                        .await(mark, org.mrconf.cases.DutTraffic.ackOf(path).covers(0), Testbed.WAIT);
            }
            assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE, data.length))
                    .as("3.1.6: one message over three paths")
                    .isEqualTo(data);
            // Every stream on every path.
            int slot = 0;
            for (int stream = 0; stream < 3; stream++) {
                for (int path = 0; path < 3; path++) {
                    writeOnStream(testbed, stream, path, "3.1.6: stream " + stream + " on path " + path, ++slot);
                }
            }
        }
    }

    @Test
    @DisplayName("a packet for a path id of the connection that was never agreed changes nothing")
    @Verifies("3.1.1")
    @Kind(Kind.Purpose.INVALID)
    void unagreedPathChangesNothing(final Testbed testbed) throws Exception {
        Drops.assertDroppedSilently(
                testbed,
                testbed.write(0, Testbed.BASE, testbed.key(), Testbed.randomBytes(CHUNK, 1))
                        .path(2),
                DutCounters.RX_INVALID_PATH,
                "3.1.1");
    }

    private static void writeAndAwaitAck(final Testbed testbed, final int path, final long offset, final String what)
            throws Exception {
        final int mark = testbed.peer().mark();
        final long psn = testbed.connection().nextPsn(path);
        testbed.connection().sendNew(chunk(testbed, path, offset), path);
        testbed.peer().await(mark, org.mrconf.cases.DutTraffic.ackOf(path).covers(psn), Testbed.WAIT);
        assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE + offset, CHUNK))
                .as(what)
                .isEqualTo(Testbed.randomBytes(CHUNK, offset));
    }

    private static void writeOnStream(final Testbed testbed, final int stream, final int path, final String what)
            throws Exception {
        writeOnStream(testbed, stream, path, what, stream % 1000);
    }

    private static void writeOnStream(
            final Testbed testbed, final int stream, final int path, final String what, final int slot)
            throws Exception {
        final PeerConnection connection = testbed.connection();
        final long offset = 0x1000L + (long) slot * CHUNK;
        final byte[] data = Testbed.randomBytes(CHUNK, offset);
        final int mark = testbed.peer().mark();
        final long psn = connection.nextPsn(path);
        connection.sendNew(
                connection.packet(Opcode.WRITE, path).stream(stream)
                        .msn(connection.takeMsn(stream))
                        .messageLength(CHUNK)
                        .remoteAddress(Testbed.BASE + offset)
                        .remoteKey(testbed.key())
                        .transmitTimestamp(77)
                        .payload(data)
                        .ackRequest(),
                path);
        testbed.peer().await(mark, org.mrconf.cases.DutTraffic.ackOf(path).covers(psn), Testbed.WAIT);
        assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE + offset, CHUNK))
                .as(what)
                .isEqualTo(data);
    }

    private static PacketBuilder chunk(final Testbed testbed, final int path, final long offset) {
        return testbed.connection().packet(Opcode.WRITE, path).stream(0)
                .msn(testbed.connection().takeMsn(0))
                .messageLength(CHUNK)
                .remoteAddress(Testbed.BASE + offset)
                .remoteKey(testbed.key())
                .transmitTimestamp(99)
                .payload(Testbed.randomBytes(CHUNK, offset))
                .ackRequest();
    }

    private static DutLimits limits(final DeviceUnderTest dut) throws Exception {
        return dut.control().hello().limits();
    }
}
