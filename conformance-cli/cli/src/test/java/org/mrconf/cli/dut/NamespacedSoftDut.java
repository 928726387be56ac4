package org.mrconf.cli.dut;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * A soft DUT process inside a network namespace that the test makes, joined to the root namespace by a
 * veth pair, so the tester reaches it with raw Ethernet frames. Addresses come from 198.18.0.0/15, the
 * benchmarking range, and exist only on this veth pair. Everything is removed on close.
 */
final class NamespacedSoftDut implements AutoCloseable {
    static final String NAMESPACE = "mrconf-e2e";
    static final String ROOT_INTERFACE = "mrce2e0";
    static final String DUT_INTERFACE = "mrce2e1";
    static final InetAddress ROOT_ADDRESS = address(1);
    static final InetAddress DUT_ADDRESS = address(2);
    /** The tester's MetaRoCE address: not configured anywhere; the raw link answers ARP for it. */
    static final InetAddress TESTER_ADDRESS = address(3);

    static final String TOKEN = "e2e-token-0123456789abcdef";

    private final Process process;

    /**
     * Whether the DUT's kernel computes its UDP checksums itself, so that the capture shows what a wire would carry:
     * a veth offloads them by default and never completes them (the capture then holds only the pseudo-header sum).
     */
    private static volatile boolean checksumsInSoftware;

    /** Whether the last namespace made its DUT's checksums real ({@link #softwareChecksums}). */
    static boolean checksumsInSoftware() {
        return checksumsInSoftware;
    }

    /** Turns checksum offload off on the DUT's veth with ethtool, if the machine has it; false if it has not. */
    private static boolean softwareChecksums() {
        try {
            DeviceProcesses.run("ip", "netns", "exec", NAMESPACE, "ethtool", "-K", DUT_INTERFACE, "tx", "off");
            return true;
        } catch (final java.io.IOException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return false; // no ethtool: UdpChecksumCase.dutSendsRightChecksums is then INCONCLUSIVE, never FAIL
        }
    }

    private NamespacedSoftDut(final Process process) {
        this.process = process;
    }

    static NamespacedSoftDut create() throws Exception {
        removeLeftovers();
        DeviceProcesses.run("ip", "netns", "add", NAMESPACE);
        DeviceProcesses.run("ip", "link", "add", ROOT_INTERFACE, "type", "veth", "peer", "name", DUT_INTERFACE);
        // Jumbo frames: the soft DUT's MTU (4176) must fit, as it would on a data-centre link.
        DeviceProcesses.run("ip", "link", "set", ROOT_INTERFACE, "mtu", "9000");
        DeviceProcesses.run("ip", "link", "set", DUT_INTERFACE, "mtu", "9000");
        DeviceProcesses.run("ip", "link", "set", DUT_INTERFACE, "netns", NAMESPACE);
        DeviceProcesses.run("ip", "addr", "add", ROOT_ADDRESS.getHostAddress() + "/24", "dev", ROOT_INTERFACE);
        DeviceProcesses.run("ip", "link", "set", ROOT_INTERFACE, "up");
        DeviceProcesses.run(
                "ip", "-n", NAMESPACE, "addr", "add", DUT_ADDRESS.getHostAddress() + "/24", "dev", DUT_INTERFACE);
        DeviceProcesses.run("ip", "-n", NAMESPACE, "link", "set", DUT_INTERFACE, "up");
        DeviceProcesses.run("ip", "-n", NAMESPACE, "link", "set", "lo", "up");
        checksumsInSoftware = softwareChecksums();
        final Process process = DeviceProcesses.startSoftDut(
                List.of("ip", "netns", "exec", NAMESPACE),
                "--bind",
                DUT_ADDRESS.getHostAddress(),
                "--port",
                "4796",
                "--control-port",
                "4797",
                "--token",
                TOKEN);
        final NamespacedSoftDut dut = new NamespacedSoftDut(process);
        try {
            DeviceProcesses.awaitListening(process, new InetSocketAddress(DUT_ADDRESS, 4797));
        } catch (final Exception e) {
            dut.close();
            throw e;
        }
        return dut;
    }

    @Override
    public void close() {
        try {
            DeviceProcesses.stop(process);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            removeLeftovers();
        }
    }

    private static void removeLeftovers() {
        DeviceProcesses.runQuietly("ip", "netns", "del", NAMESPACE);
        DeviceProcesses.runQuietly("ip", "link", "del", ROOT_INTERFACE);
    }

    private static InetAddress address(final int last) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) 198, 18, 2, (byte) last});
        } catch (final UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
