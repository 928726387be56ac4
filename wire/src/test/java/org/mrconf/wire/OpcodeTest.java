package org.mrconf.wire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OpcodeTest {

    @Test
    void shouldLookUpEveryByteValue() {
        int known = 0;
        for (int value = 0; value < 256; value++) {
            Opcode opcode = Opcode.fromValue(value);
            if (opcode != null) {
                known++;
                assertThat(opcode.value()).isEqualTo(value);
            }
        }
        assertThat(known).isEqualTo(Opcode.values().length);
        assertThat(Opcode.fromValue(-1)).isNull();
        assertThat(Opcode.fromValue(256 + 1)).isNull();
        assertThat(Opcode.fromValue(Integer.MIN_VALUE)).isNull();
    }

    @Test
    void shouldKnowWhichOpcodesCarryTheDataHeader() {
        assertThat(Opcode.READ_REQUEST.hasDataHeader()).isTrue();
        assertThat(Opcode.READ_REQUEST.carriesPayload()).isFalse();
        assertThat(Opcode.SEND.hasDataHeader()).isTrue();
        assertThat(Opcode.ACK.hasDataHeader()).isFalse();
        assertThat(Opcode.PROBE.packetLength(0)).isEqualTo(24);
        assertThat(Opcode.WRITE.packetLength(100)).isEqualTo(152);
    }

    @Test
    void shouldAgreeWithTheFlyweightHeaderLengths() {
        assertThat(Opcode.ACK.headerLength()).isEqualTo(AckFlyweight.HEADER_LENGTH);
        assertThat(Opcode.NACK.headerLength()).isEqualTo(NackFlyweight.HEADER_LENGTH);
        assertThat(Opcode.PROBE.headerLength()).isEqualTo(ProbeFlyweight.HEADER_LENGTH);
        assertThat(Opcode.WRITE.headerLength()).isEqualTo(DataHeaderFlyweight.REMOTE_KEY_OFFSET + 4);
        assertThat(Opcode.WRITE_WITH_IMMEDIATE.headerLength()).isEqualTo(DataHeaderFlyweight.IMMEDIATE_OFFSET + 4);
        assertThat(Opcode.SEND.headerLength()).isEqualTo(DataHeaderFlyweight.RECEIVE_SEQUENCE_NUMBER_OFFSET + 4);
        assertThat(Opcode.READ_REQUEST.headerLength())
                .isEqualTo(DataHeaderFlyweight.READ_REQUEST_SINK_HANDLE_OFFSET + 4);
        assertThat(Opcode.READ_RESPONSE.headerLength())
                .isEqualTo(DataHeaderFlyweight.READ_RESPONSE_SINK_HANDLE_OFFSET + 4);
    }
}
