package org.mrconf.wire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NackCodeTest {

    @Test
    void shouldNumberTheCodesAsTable9Dash1() {
        assertThat(NackCode.REMOTE_ACCESS.value()).isEqualTo(0x01);
        assertThat(NackCode.BOUNDS.value()).isEqualTo(0x02);
        assertThat(NackCode.RECEIVER_NOT_READY.value()).isEqualTo(0x03);
        assertThat(NackCode.MESSAGE_TOO_LONG.value()).isEqualTo(0x04);
        assertThat(NackCode.INVALID_REQUEST.value()).isEqualTo(0x05);
        assertThat(NackCode.UNKNOWN_CONNECTION.value()).isEqualTo(0x06);
        assertThat(NackCode.PSN_OUT_OF_WINDOW.value()).isEqualTo(0x07);
    }

    @Test
    void shouldLookUpEveryByteValue() {
        for (int value = -1; value <= 256; value++) {
            NackCode code = NackCode.fromValue(value);
            if (value >= 1 && value <= 7) {
                assertThat(code.value()).isEqualTo(value);
            } else {
                assertThat(code).as("0x%x", value).isNull();
            }
        }
    }

    @Test
    void shouldTellTheSenderWhatToDo() {
        assertThat(NackCode.PSN_OUT_OF_WINDOW.senderAction()).isEqualTo(NackCode.SenderAction.RETRANSMIT);
        assertThat(NackCode.RECEIVER_NOT_READY.senderAction()).isEqualTo(NackCode.SenderAction.RETRY_LATER);
        assertThat(NackCode.UNKNOWN_CONNECTION.senderAction()).isEqualTo(NackCode.SenderAction.FAIL_CONNECTION);
        for (NackCode code : new NackCode[] {
            NackCode.REMOTE_ACCESS, NackCode.BOUNDS, NackCode.MESSAGE_TOO_LONG, NackCode.INVALID_REQUEST
        }) {
            assertThat(code.senderAction()).as("%s", code).isEqualTo(NackCode.SenderAction.FAIL_MESSAGE);
        }
    }
}
