package org.mrconf.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.wire.Crc32cTrailer;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Packet;

class PlaceholderRewriterTest {
    private static final Sidecar.Placeholders RECORDED = new Sidecar.Placeholders(
            0x0001_0001L, 10, Map.of("target", new Sidecar.RegionPlaceholder(0x7000_0000L, 0x77)), Map.of());
    private static final PlaceholderRewriter REWRITER = new PlaceholderRewriter(
            RECORDED,
            0x00AB_0001L,
            0xFFFF_FFFFL,
            Map.of("target", new PlaceholderRewriter.ActualRegion(0x9000_0000L, 0x1234, 4096)));

    @Test
    void shouldMoveConnectionPsnKeyAndAddressToTheDutsValuesWithAGoodCrc() {
        final byte[] recorded = write(12, 0x7000_0100L, 0x77).build();
        final DataPacket actual = (DataPacket) Packet.fromBytes(REWRITER.rewrite(recorded));
        assertThat(actual.header().destinationConnectionId()).isEqualTo(0x00AB_0001L);
        assertThat(actual.header().psn())
                .as("12 - 10 + 2^32 - 1, across the wrap")
                .isEqualTo(1);
        assertThat(actual.remoteKey()).isEqualTo(0x1234);
        assertThat(actual.remoteAddress()).isEqualTo(0x9000_0100L);
    }

    @Test
    void shouldKeepAForeignKeyAndTheExactCrcErrorOfABadPacket() {
        final byte[] recorded = write(10, 0x7000_0000L, 0x5EC0_0BADL).badCrc().build();
        final ByteBuffer before = ByteBuffer.wrap(recorded);
        final long errorBefore = Crc32cTrailer.read(before, 0, recorded.length)
                ^ new Crc32cTrailer().compute(before, 0, recorded.length - 4);

        final byte[] rewritten = REWRITER.rewrite(recorded);
        final ByteBuffer after = ByteBuffer.wrap(rewritten);

        assertThat(after.getInt(44) & 0xFFFF_FFFFL)
                .as("a key that is no placeholder")
                .isEqualTo(0x5EC0_0BADL);
        assertThat(Crc32cTrailer.read(after, 0, rewritten.length)
                        ^ new Crc32cTrailer().compute(after, 0, rewritten.length - 4))
                .as("the same CRC error")
                .isEqualTo(errorBefore)
                .isNotZero();
    }

    @Test
    void shouldLeaveATruncatedPacketsMissingFieldsAlone() {
        final byte[] recorded = write(10, 0x7000_0000L, 0x77).truncateTo(14).build();
        final byte[] rewritten = REWRITER.rewrite(recorded);
        assertThat(rewritten).hasSize(14);
        assertThat(ByteBuffer.wrap(rewritten).getInt(4)).isEqualTo(0x00AB_0001);
    }

    private static PacketBuilder write(final long psn, final long address, final long key) {
        return PacketBuilder.write().connection(0x0001_0001L).path(0).psn(psn).stream(0)
                .msn(0)
                .messageLength(8)
                .messageOffset(0)
                .remoteAddress(address)
                .remoteKey(key)
                .payload(new byte[8]);
    }
}
