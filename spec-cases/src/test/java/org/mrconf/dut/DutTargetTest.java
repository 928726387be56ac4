package org.mrconf.dut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mrconf.dut.DeviceDeclaration.LinkKind;

class DutTargetTest {
    private static final String TOKEN = "0123456789abcdef";

    @Test
    void shouldMeanTheEmbeddedReferenceWhenAbsent() throws Exception {
        assertThat(DutTarget.parse(null)).isEqualTo(new DutTarget.Embedded());
    }

    @Test
    void shouldRefuseABlankTargetAndAnUnknownScheme() {
        assertThat(catchThrowableOfType(DeclarationException.class, () -> DutTarget.parse("  ")))
                .hasMessageStartingWith("--dut: (target): is blank");
        assertThat(catchThrowableOfType(DeclarationException.class, () -> DutTarget.parse("garbage://x")))
                .hasMessageStartingWith("--dut: (target): unknown scheme 'garbage'");
    }

    @Test
    void shouldNameTheReferenceWithDefects() throws Exception {
        assertThat(DutTarget.parse("reference")).isEqualTo(new DutTarget.Embedded());
        assertThat(DutTarget.parse("reference?defect=accept-bad-crc, strict-minor-version"))
                .isEqualTo(new DutTarget.Embedded(java.util.List.of("accept-bad-crc", "strict-minor-version")));
    }

    @Test
    void shouldNameTheReferencesConfiguration() throws Exception {
        assertThat(DutTarget.parse("reference?config=long-haul"))
                .isEqualTo(new DutTarget.Embedded(java.util.List.of(), "long-haul"));
        assertThat(DutTarget.parse("reference?defect=accept-bad-crc&config=long-haul"))
                .isEqualTo(new DutTarget.Embedded(java.util.List.of("accept-bad-crc"), "long-haul"));
        assertThat(DutTarget.parse("reference?variant=first-windows-of-one"))
                .isEqualTo(new DutTarget.Embedded(
                        java.util.List.of(), "standard", java.util.Optional.of("first-windows-of-one")));
        assertThatThrownBy(() -> DutTarget.parse("reference?variant=first-windows-of-one&config=core"))
                .isInstanceOf(DeclarationException.class)
                .hasMessageContaining("give it alone");
        assertThat(((DutTarget.Embedded) DutTarget.parse("reference")).configuration())
                .isEqualTo(DutTarget.Embedded.STANDARD);
        assertThat(catchThrowableOfType(() -> DutTarget.parse("reference?config="), DeclarationException.class))
                .hasMessageContaining("config");
    }

    @Test
    void shouldRejectAReferenceQueryWithoutDefects() {
        DeclarationException empty =
                catchThrowableOfType(() -> DutTarget.parse("reference?defect="), DeclarationException.class);
        DeclarationException unknown =
                catchThrowableOfType(() -> DutTarget.parse("reference?bug=x"), DeclarationException.class);

        assertThat(empty).hasMessageContaining("defect");
        assertThat(unknown).hasMessageContaining("bug").hasMessageContaining("expected defect, config or variant");
    }

    @Test
    void shouldPutTheControlAgentOnTheNextPort() throws Exception {
        DutTarget target = DutTarget.parse("udp://192.0.2.7:5000");

        assertThat(target)
                .isEqualTo(new DutTarget.Udp(InetAddress.getByName("192.0.2.7"), 5000, 5001, Optional.empty()));
        assertThat(((DutTarget.Udp) target).control()).isEqualTo(ControlEndpoint.of("192.0.2.7", 5001));
    }

    @Test
    void shouldTakeTheControlPortAndTokenFromTheQuery() throws Exception {
        DutTarget.Udp target = (DutTarget.Udp) DutTarget.parse("udp://[2001:db8::7]:4796?control=9000&token=" + TOKEN);

        assertThat(target.address()).isEqualTo(InetAddress.getByName("2001:db8::7"));
        assertThat(target.port()).isEqualTo(4796);
        assertThat(target.controlPort()).isEqualTo(9000);
        assertThat(target.token()).contains(TOKEN);
    }

    @Test
    void shouldDefaultTheMetaroceAndControlPorts() throws Exception {
        DutTarget.Udp target = (DutTarget.Udp) DutTarget.parse("udp://localhost");

        assertThat(target.address()).isEqualTo(InetAddress.getLoopbackAddress());
        assertThat(target.port()).isEqualTo(4796);
        assertThat(target.controlPort()).isEqualTo(4797);
    }

    @Test
    void shouldNameAnInterfaceOrAProfileFile() throws Exception {
        assertThat(DutTarget.parse("iface:enp3s0f1")).isEqualTo(new DutTarget.RawInterface("enp3s0f1"));
        assertThat(DutTarget.parse("lab/nic.json")).isEqualTo(new DutTarget.ProfileFile(Path.of("lab/nic.json")));
    }

    @Test
    void shouldTakeAddressesForAQuickRawRun() throws Exception {
        DutTarget.RawInterface target = (DutTarget.RawInterface)
                DutTarget.parse("iface:veth1?dut=198.18.0.2&tester=198.18.0.3&control=5000&token=0123456789abcdef");

        assertThat(target.name()).isEqualTo("veth1");
        assertThat(target.hasAddresses()).isTrue();
        DeviceDeclaration profile =
                target.applyTo(new DeclarationLoader().loadBundled(DeclarationLoader.REFERENCE_UDP));
        assertThat(profile.parameters().dut()).isEqualTo(new java.net.InetSocketAddress("198.18.0.2", 4796));
        assertThat(profile.parameters().tester().getAddress().getHostAddress()).isEqualTo("198.18.0.3");
        assertThat(profile.control())
                .get()
                .extracting(ControlEndpoint::host, ControlEndpoint::port)
                .containsExactly("198.18.0.2", 5000);
        assertThat(profile.link().kind()).isEqualTo(DeviceDeclaration.LinkKind.RAW);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        udp://host.example:4796            | host    | must be an IP address literal or localhost
        udp://127.0.0.1:0                  | port    | must be 1 to 65535, found 0
        udp://127.0.0.1:70000              | port    | must be 1 to 65535
        udp://127.0.0.1:4796?control=x     | control | must be a port 1 to 65535, found "x"
        udp://127.0.0.1:4796?token=short   | token   | at least 16 characters
        udp://127.0.0.1:4796?speed=fast    | speed   | unknown parameter
        udp://127.0.0.1:4796/path          | udp     | expected udp://host:port
        udp://127.0.0.1:65535              | control | port + 1 is not a port
        iface:                             | iface   | not a Linux interface name
        iface:a-very-long-interface-name   | iface   | not a Linux interface name
        iface:eth1?dut=198.18.0.2          | tester  | give both dut and tester addresses
        iface:eth1?dut=nic&tester=1.2.3.4  | dut     | must be an IP address literal
        iface:eth1?speed=fast              | speed   | unknown parameter
        """)
    void shouldRejectBadShortcutsNamingThePart(String text, String field, String problem) {
        DeclarationException e = catchThrowableOfType(DeclarationException.class, () -> DutTarget.parse(text));

        assertThat(e).as(text).isNotNull();
        assertThat(e.source()).isEqualTo("--dut");
        assertThat(e.field()).isEqualTo(field);
        assertThat(e.problem()).contains(problem);
    }

    @Test
    void shouldApplyAShortcutToABaseProfile() throws Exception {
        DeviceDeclaration base = new DeclarationLoader().loadBundled(DeclarationLoader.REFERENCE_UDP);

        DeviceDeclaration udp =
                DutTarget.parse("udp://192.0.2.9:6000?token=" + TOKEN).applyTo(base);
        DeviceDeclaration raw = DutTarget.parse("iface:eth2").applyTo(base);
        DeviceDeclaration embedded = DutTarget.parse(null).applyTo(base);

        assertThat(udp.parameters().dut()).isEqualTo(new InetSocketAddress(InetAddress.getByName("192.0.2.9"), 6000));
        assertThat(udp.control()).contains(new ControlEndpoint("192.0.2.9", 6001, Optional.of(TOKEN)));
        assertThat(raw.link().kind()).isEqualTo(LinkKind.RAW);
        assertThat(raw.link().interfaceName()).contains("eth2");
        assertThat(embedded.link().kind()).isEqualTo(LinkKind.EMBEDDED);
        assertThat(embedded.control()).isEmpty();
        assertThat(new DutTarget.ProfileFile(Path.of("x.json")).applyTo(base)).isSameAs(base);
    }
}
