package org.mrconf.devices;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DeclarationException;
import org.mrconf.dut.DutInfo;

class OpenDeviceTest {
    @Test
    void shouldOpenTheLongHaulConfigurationWithItsDeclarationsAndAHelloThatAgrees() throws Exception {
        try (OpenDevice opened = OpenDevice.open("reference?config=long-haul")) {
            assertThat(opened.device().profile().claims(Profile.LONG_HAUL)).isTrue();
            assertThat(opened.device().profile().parameters().timers().maxRto()).isEqualTo(Duration.ofSeconds(1));
            final DutInfo hello = opened.device().control().hello();
            assertThat(hello.profiles()).contains(Profile.LONG_HAUL);
        }
        try (OpenDevice standard = OpenDevice.open(null)) {
            assertThat(standard.device().profile().claims(Profile.LONG_HAUL)).isFalse();
            assertThat(standard.device().control().hello().profiles()).doesNotContain(Profile.LONG_HAUL);
        }
    }

    @Test
    void shouldOpenTheIpv6ConfigurationOnIpv6Labels() throws Exception {
        try (OpenDevice opened = OpenDevice.open("reference?config=ipv6")) {
            assertThat(opened.device().profile().claims(Profile.IPV6)).isTrue();
            assertThat(opened.device().link().testerAddress()).isInstanceOf(java.net.Inet6Address.class);
            assertThat(opened.device().profile().parameters().dut().getAddress())
                    .isInstanceOf(java.net.Inet6Address.class);
            assertThat(opened.device().control().hello().profiles()).contains(Profile.IPV6);
            assertThat(opened.device().link().frameSender())
                    .as("IPv6 carries whole frames")
                    .isPresent();
        }
    }

    @Test
    void shouldOpenTheFramesConfigurationWithAFrameSenderAndTheStandardClaims() throws Exception {
        try (OpenDevice opened = OpenDevice.open("reference?config=frames");
                OpenDevice standard = OpenDevice.open("reference")) {
            assertThat(opened.device().link().frameSender()).isPresent();
            assertThat(standard.device().link().frameSender()).isEmpty();
            assertThat(opened.device().link().testerAddress()).isInstanceOf(java.net.Inet4Address.class);
            assertThat(opened.device().profile().conformance())
                    .isEqualTo(standard.device().profile().conformance());
        }
    }

    @Test
    void shouldStartATwinOfTheEmbeddedReferenceWithTheSameDefectsAndDeclarations() throws Exception {
        try (OpenDevice opened = OpenDevice.open("reference?defect=accept-bad-crc&config=long-haul");
                OpenDevice twin = opened.twin().orElseThrow()) {
            assertThat(twin.device()).isNotSameAs(opened.device());
            assertThat(twin.device().profile()).isEqualTo(opened.device().profile());
            assertThat(twin.device().control().hello().defects())
                    .isEqualTo(opened.device().control().hello().defects())
                    .contains("accept-bad-crc");
        }
    }

    @Test
    void shouldNameTheFieldOfAnUnknownConfiguration() {
        assertThatThrownBy(() -> OpenDevice.open("reference?config=metro"))
                .isInstanceOf(DeclarationException.class)
                .hasMessageContaining("config")
                .hasMessageContaining("metro")
                .hasMessageContaining("long-haul")
                .hasMessageContaining("ipv6");
    }
}
