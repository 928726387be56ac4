package org.mrconf.dut;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.mrconf.pcap.ChecksumMode;
import org.mrconf.pcap.DecodedFrame;
import org.mrconf.pcap.Ecn;
import org.mrconf.pcap.EncodeOptions;
import org.mrconf.pcap.MacAddress;
import org.mrconf.pcap.UdpFrame;

/**
 * The raw Ethernet link against a real kernel: a veth pair whose tester end stays in this namespace (no IP
 * address, so only the link speaks for the tester, ARP included) and whose DUT end sits in a network namespace
 * where {@link NetnsUdpResponder} answers every datagram. Addresses are from 198.18.0.0/15, the benchmarking
 * range. Needs root, libpcap and iproute2; without them every test is skipped with the reason.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RawEthernetWireLinkTest {
    private static final String NAMESPACE = "mrconf-rawlink-test";
    private static final String TESTER_IF = "mrcf-tst0";
    private static final String DUT_IF = "mrcf-dut0";
    private static final MacAddress TESTER_MAC = MacAddress.parse("02:6d:72:00:00:01");
    private static final MacAddress DUT_MAC = MacAddress.parse("02:6d:72:00:00:02");
    private static final String TESTER_IP = "198.18.0.1";
    private static final String DUT_IP = "198.18.0.2";
    private static final int TESTER_PORT = 4797;
    private static final int DUT_PORT = 4796;
    private static final int DUT_ENTROPY = 49_999;
    private static final Duration WAIT = Duration.ofSeconds(3);

    private static Process responder;
    private static RawEthernetWireLink link;

    /** Why the namespace cannot be built here, or {@code null}: each network test then skips with it. */
    private static String unavailable;

    @BeforeAll
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    static void createNamespaceAndLink() throws Exception {
        unavailable = missingPrerequisite();
        if (unavailable != null) {
            return;
        }
        removeNetwork();
        try {
            run("ip", "netns", "add", NAMESPACE);
        } catch (IOException e) {
            unavailable = "cannot create a network namespace on this machine: " + e.getMessage();
            return;
        }
        run(
                "ip",
                "link",
                "add",
                TESTER_IF,
                "address",
                TESTER_MAC.toString(),
                "type",
                "veth",
                "peer",
                "name",
                DUT_IF,
                "address",
                DUT_MAC.toString());
        run("ip", "link", "set", DUT_IF, "netns", NAMESPACE);
        // The tester end has no address; it must not forward what the DUT sends to 198.18.0.1 anywhere.
        Files.writeString(Path.of("/proc/sys/net/ipv4/conf", TESTER_IF, "forwarding"), "0");
        writeIfPresent(Path.of("/proc/sys/net/ipv6/conf", TESTER_IF, "disable_ipv6"), "1");
        run("ip", "link", "set", TESTER_IF, "up");
        run("ip", "-n", NAMESPACE, "addr", "add", DUT_IP + "/24", "dev", DUT_IF);
        run("ip", "-n", NAMESPACE, "link", "set", DUT_IF, "up");
        run("ip", "-n", NAMESPACE, "link", "set", "lo", "up");
        responder = startResponder();
        link = RawEthernetWireLink.open(RawEthernetOptions.of(
                        TESTER_IF,
                        new InetSocketAddress(InetAddress.getByName(TESTER_IP), TESTER_PORT),
                        new InetSocketAddress(InetAddress.getByName(DUT_IP), DUT_PORT))
                .withResolveTimeout(WAIT));
    }

    @BeforeEach
    void skipWithoutTheNetwork(TestInfo test) {
        if (!test.getTestMethod().orElseThrow().getName().equals("shouldBuildArpFramesByTheBook")) {
            Assumptions.assumeTrue(unavailable == null, () -> unavailable);
        }
    }

    @AfterAll
    @Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    static void removeNamespaceAndLink() throws Exception {
        if (missingPrerequisite() != null) {
            return;
        }
        if (link != null) {
            link.close();
        }
        if (responder != null) {
            responder.getOutputStream().close();
            if (!responder.waitFor(2, TimeUnit.SECONDS)) {
                responder.destroyForcibly().waitFor(2, TimeUnit.SECONDS);
            }
        }
        removeNetwork();
    }

    @Test
    void shouldResolveTheDutMacAndExchangeFramesBothWays() throws Exception {
        drain();

        link.send(new byte[] {1, 2, 3}, 50_000, Ecn.CE);
        CapturedPacket reply = link.receive(WAIT).orElseThrow(() -> new AssertionError("no reply"));

        assertThat(link.dutMac()).isEqualTo(DUT_MAC);
        assertThat(link.testerMac()).isEqualTo(TESTER_MAC);
        assertThat(echoedSource(reply)).isEqualTo(new InetSocketAddress(InetAddress.getByName(TESTER_IP), 50_000));
        assertThat(echoedPayload(reply)).containsExactly(1, 2, 3);
        assertThat(reply.sourceAddress()).isEqualTo(InetAddress.getByName(DUT_IP));
        assertThat(reply.sourcePort()).isEqualTo(DUT_ENTROPY);
        assertThat(reply.destinationPort()).isEqualTo(TESTER_PORT);
        assertThat(reply.ecnObserved()).isTrue();
        assertThat(reply.ecn()).isEqualTo(Ecn.ECT_0);
        DecodedFrame frame = reply.frame().orElseThrow();
        // veth leaves the UDP checksum to an offload that never happens, so only the IP header's is checked.
        assertThat(frame.ipChecksumOk()).isTrue();
        assertThat(frame.frame().srcMac()).isEqualTo(DUT_MAC);
        assertThat(frame.frame().dstMac()).isEqualTo(TESTER_MAC);
    }

    @Test
    void shouldAnswerArpForTheTesterAddress() throws Exception {
        drain();
        run("ip", "-n", NAMESPACE, "neigh", "flush", "all");
        long before = link.arpRepliesSent();

        link.send(new byte[] {4}, 50_001, Ecn.NOT_ECT);

        assertThat(link.receive(WAIT)).isPresent();
        assertThat(link.arpRepliesSent()).isGreaterThan(before);
    }

    @Test
    void shouldSendDeliberatelyMalformedFramesThatTheDutsKernelDrops() throws Exception {
        drain();
        UdpFrame.Builder template = link.frameTemplate().srcPort(50_002);

        link.sendFrame(
                template.payload(new byte[] {10}).build(), EncodeOptions.DEFAULT.withUdpChecksum(ChecksumMode.CORRUPT));
        link.sendFrame(
                template.payload(new byte[] {11}).build(),
                EncodeOptions.DEFAULT.withIpv4HeaderChecksum(ChecksumMode.CORRUPT));
        link.sendFrame(template.payload(new byte[] {12}).build(), EncodeOptions.DEFAULT.withUdpLength(100));
        link.sendFrame(template.payload(new byte[] {13}).build(), EncodeOptions.DEFAULT);

        List<byte[]> echoed = new ArrayList<>();
        Optional<CapturedPacket> next = link.receive(WAIT);
        while (next.isPresent()) {
            echoed.add(echoedPayload(next.get()));
            next = link.receive(Duration.ofMillis(200));
        }
        assertThat(echoed).containsExactly(new byte[] {13});
    }

    @Test
    void shouldSendFromAnotherSourceAddress() throws Exception {
        drain();
        InetAddress other = link.alternateSourceAddress().orElseThrow();

        link.sendFrom(other, new byte[] {5}, 50_003, Ecn.ECT_1);
        CapturedPacket reply = link.receive(WAIT).orElseThrow(() -> new AssertionError("no reply"));

        assertThat(other).isEqualTo(InetAddress.getByName("198.18.0.3"));
        assertThat(echoedSource(reply)).isEqualTo(new InetSocketAddress(other, 50_003));
        assertThat(link.capabilities())
                .as("everything but wire checksums: a veth is virtual, so a local sender's checksums may be offloaded")
                .containsExactlyInAnyOrder(
                        WireLink.Capability.SEND_ECN,
                        WireLink.Capability.RECEIVE_ECN,
                        WireLink.Capability.OTHER_SOURCE_ADDRESS,
                        WireLink.Capability.MALFORMED_FRAMES);
        assertThat(RawEthernetWireLink.isPhysical("lo"))
                .as("loopback is virtual")
                .isFalse();
        assertThat(link.frameSender())
                .as("the link a case sends whole frames through")
                .containsSame(link);
    }

    @Test
    void shouldBuildArpFramesByTheBook() {
        byte[] frame = ArpResponder.frame(
                2, DUT_MAC, TESTER_MAC, new byte[] {(byte) 198, 18, 0, 1}, DUT_MAC, new byte[] {(byte) 198, 18, 0, 2});

        assertThat(frame).hasSize(60);
        assertThat(Arrays.copyOfRange(frame, 12, 22)).containsExactly(0x08, 0x06, 0, 1, 0x08, 0, 6, 4, 0, 2);
        assertThat(MacAddress.of(frame, 22)).isEqualTo(TESTER_MAC);
        assertThat(Arrays.copyOfRange(frame, 38, 42)).containsExactly(198 - 256, 18, 0, 2);
    }

    /** Skips the calling test, with the reason, unless this is root with libpcap. */
    static void assumeRootWithLibpcap() {
        String missing = missingRootOrLibpcap();
        Assumptions.assumeTrue(missing == null, missing);
    }

    private static String missingRootOrLibpcap() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "needs root for raw capture and network namespaces; running as " + System.getProperty("user.name");
        }
        try {
            org.mrconf.pcap.Libpcap.version();
        } catch (IllegalStateException e) {
            return "libpcap is not installed: " + e.getMessage();
        }
        return null;
    }

    private static String missingPrerequisite() throws InterruptedException {
        String missing = missingRootOrLibpcap();
        if (missing != null) {
            return missing;
        }
        try {
            run("ip", "-V");
        } catch (IOException e) {
            return "iproute2's ip command is missing: " + e.getMessage();
        }
        return null;
    }

    private static void drain() throws IOException {
        while (link.receive(Duration.ofMillis(50)).isPresent()) {
            // Discard replies a previous test left behind.
        }
    }

    private static InetSocketAddress echoedSource(CapturedPacket reply) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(reply.bytes());
        byte[] ip = new byte[4];
        b.get(ip);
        return new InetSocketAddress(InetAddress.getByAddress(ip), b.getShort() & 0xFFFF);
    }

    private static byte[] echoedPayload(CapturedPacket reply) {
        byte[] bytes = reply.bytes();
        return Arrays.copyOfRange(bytes, 6, bytes.length);
    }

    private static Process startResponder() throws Exception {
        Path classes = Path.of(NetnsUdpResponder.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(
                        "ip",
                        "netns",
                        "exec",
                        NAMESPACE,
                        java,
                        "-Xshare:auto",
                        "-cp",
                        classes.toString(),
                        NetnsUdpResponder.class.getName(),
                        DUT_IP,
                        String.valueOf(DUT_PORT),
                        TESTER_IP,
                        String.valueOf(TESTER_PORT),
                        String.valueOf(DUT_ENTROPY))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (IOException e) {
                return e.toString();
            }
        });
        String line = ready.get(20, TimeUnit.SECONDS);
        if (!"READY".equals(line)) {
            process.destroyForcibly();
            throw new IllegalStateException("the responder in " + NAMESPACE + " did not start: " + line);
        }
        return process;
    }

    private static void removeNetwork() throws Exception {
        runQuietly("ip", "netns", "del", NAMESPACE);
        runQuietly("ip", "link", "del", TESTER_IF);
    }

    private static void writeIfPresent(Path file, String value) throws IOException {
        if (Files.exists(file)) {
            Files.writeString(file, value);
        }
    }

    private static String run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " timed out");
        }
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed (" + p.exitValue() + "): " + output.strip());
        }
        return output;
    }

    private static void runQuietly(String... command) throws InterruptedException {
        try {
            run(command);
        } catch (IOException e) {
            // Nothing to remove.
        }
    }
}
