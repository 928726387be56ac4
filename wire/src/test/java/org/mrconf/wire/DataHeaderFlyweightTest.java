package org.mrconf.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class DataHeaderFlyweightTest {
    private final ByteBuffer buf = ByteBuffer.allocate(128);
    private final PacketEncoder encoder = new PacketEncoder();

    @Test
    void shouldPlaceTheSinkHandleWhereTheOpcodePutsIt() {
        encoder.data(buf, 0, Opcode.READ_REQUEST).sinkHandle(0xA1A2A3A4L);
        assertThat(buf.getInt(DataHeaderFlyweight.READ_REQUEST_SINK_HANDLE_OFFSET))
                .isEqualTo(0xA1A2A3A4);
        DataHeaderFlyweight response =
                encoder.data(buf, 0, Opcode.READ_RESPONSE).sinkHandle(0xB1B2B3B4L);
        assertThat(buf.getInt(DataHeaderFlyweight.READ_RESPONSE_SINK_HANDLE_OFFSET))
                .isEqualTo(0xB1B2B3B4);
        assertThat(response.sinkHandle()).isEqualTo(0xB1B2B3B4L);
    }

    @ParameterizedTest
    @EnumSource(
            value = Opcode.class,
            names = {"WRITE", "WRITE_WITH_IMMEDIATE", "SEND", "READ_REQUEST", "READ_RESPONSE"})
    void shouldRefuseExtensionFieldsTheOpcodeDoesNotCarry(Opcode opcode) {
        DataHeaderFlyweight data = encoder.data(buf, 0, opcode);
        boolean region =
                opcode == Opcode.WRITE || opcode == Opcode.WRITE_WITH_IMMEDIATE || opcode == Opcode.READ_REQUEST;
        checkCarried(region, data::remoteAddress, "remote address");
        checkCarried(region, data::remoteKey, "remote key");
        checkCarried(opcode == Opcode.WRITE_WITH_IMMEDIATE, data::immediate, "immediate");
        checkCarried(opcode == Opcode.SEND, data::receiveSequenceNumber, "receive sequence number");
        checkCarried(opcode == Opcode.READ_REQUEST || opcode == Opcode.READ_RESPONSE, data::sinkHandle, "sink handle");
    }

    private static void checkCarried(boolean carried, Runnable access, String field) {
        if (carried) {
            access.run();
        } else {
            assertThatThrownBy(access::run)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(field);
        }
    }

    @Test
    void shouldReachAnyOffsetThroughRawAccessors() {
        DataHeaderFlyweight data = encoder.data(buf, 4, Opcode.WRITE).rawU32(DataHeaderFlyweight.IMMEDIATE_OFFSET, 7);
        assertThat(buf.getInt(4 + 48)).isEqualTo(7);
        assertThat(data.rawU32(48)).isEqualTo(7);
        assertThat(data.payloadIndex()).isEqualTo(4 + 48);
    }

    @Test
    void shouldUseTheBareDataHeaderLengthForAnUnknownOpcode() {
        DataHeaderFlyweight data = new DataHeaderFlyweight().wrap(buf, 0).opcodeValue(0x7F);
        assertThat(data.headerLength()).isEqualTo(DataHeaderFlyweight.HEADER_LENGTH);
        assertThatThrownBy(data::sinkHandle).hasMessageContaining("0x7f");
        assertThat(data.toString()).contains("opcode=0x7f", "streamId=0");
    }

    @Test
    void shouldDescribeItselfWithoutThrowing() {
        assertThat(new DataHeaderFlyweight().toString()).isEqualTo("DataHeaderFlyweight{unwrapped}");
        assertThat(new DataHeaderFlyweight().wrap(ByteBuffer.allocate(8), 0).toString())
                .contains("truncated");
        assertThat(new DataHeaderFlyweight().wrap(buf, 120).toString()).contains("truncated");
        assertThat(new DataHeaderFlyweight().wrap(buf, -3).toString()).contains("truncated");
        encoder.data(buf, 0, Opcode.READ_REQUEST);
        assertThat(new DataHeaderFlyweight()
                        .wrap(ByteBuffer.wrap(buf.array(), 0, 30), 0)
                        .toString())
                .contains("opcode=READ_REQUEST", "truncated");
        for (Opcode opcode : new Opcode[] {Opcode.WRITE_WITH_IMMEDIATE, Opcode.SEND, Opcode.READ_RESPONSE}) {
            assertThat(encoder.data(buf, 0, opcode).toString()).contains("opcode=" + opcode.name());
        }
    }
}
