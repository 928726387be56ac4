package org.mrconf.wire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PacketFlagsTest {

    @Test
    void shouldTestAndNameFlags() {
        int flags = PacketFlags.RETRANSMISSION | PacketFlags.ACK_REQUEST | 0x0100;
        assertThat(PacketFlags.isSet(flags, PacketFlags.RETRANSMISSION | PacketFlags.ACK_REQUEST))
                .isTrue();
        assertThat(PacketFlags.isSet(PacketFlags.RETRANSMISSION, PacketFlags.DEFINED_MASK))
                .isFalse();
        assertThat(PacketFlags.toString(flags)).isEqualTo("RETRANSMISSION|ACK_REQUEST|0x0100");
        assertThat(PacketFlags.toString(PacketFlags.NONE)).isEqualTo("NONE");
        assertThat(PacketFlags.toString(0x8000)).isEqualTo("0x8000");
    }
}
