package org.mrconf.wire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DecodeErrorTest {

    @Test
    void shouldCopyIndependently() {
        DecodeError error = new DecodeError();
        error.set(
                DecodeStatus.INVALID_FIELD,
                DecodeError.FIELD_CODE,
                "Table 9-1",
                0x42,
                DecodeError.Bound.KNOWN_VALUE,
                0);
        DecodeError copy = error.copy();
        assertThat(copy).isEqualTo(error).hasSameHashCodeAs(error);
        error.clear();
        assertThat(copy.kind()).isEqualTo(DecodeStatus.INVALID_FIELD);
        assertThat(copy).isNotEqualTo(error);
        assertThat(copy).hasToString("INVALID_FIELD (Table 9-1): code = 0x42, expected a defined value");
        assertThat(error).hasToString("OK");
    }

    @Test
    void shouldPrintLengthsInDecimal() {
        DecodeError error = new DecodeError();
        error.set(DecodeStatus.TRUNCATED, DecodeError.FIELD_PACKET_LENGTH, "5.1.3", 12, DecodeError.Bound.AT_LEAST, 20);
        assertThat(error).hasToString("TRUNCATED (5.1.3): packet length = 12, expected >= 20");
    }
}
