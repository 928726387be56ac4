package org.mrconf.wire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WireConstantsTest {

    @Test
    void shouldHoldTheDraftsNumbers() {
        assertThat(WireConstants.VERSION_1_0).isEqualTo(0x10);
        assertThat(WireConstants.VERSION_1_0 >>> 4).isEqualTo(WireConstants.VERSION_MAJOR_1);
        assertThat(WireConstants.DEFAULT_UDP_PORT).isEqualTo(4796);
        assertThat(WireConstants.TRAILER_LENGTH).isEqualTo(4);
        assertThat(WireConstants.SACK_BITS).isEqualTo(AckFlyweight.SACK_BITMAP_SIZE * 8);
        assertThat(WireConstants.MAX_PATHS).isEqualTo(256);
        assertThat(WireConstants.MIN_PACKET_LENGTH).isEqualTo(20);
    }
}
