package org.mrconf.cli.dut;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Starting, waiting for and stopping soft DUT processes and the network commands around them. */
final class DeviceProcesses {
    private DeviceProcesses() {}

    /** {@code java -cp <this classpath> org.mrconf.cli.MetaroceCommand dut serve ...}, optionally under a prefix. */
    static Process startSoftDut(final List<String> prefix, final String... serveArguments) throws IOException {
        final List<String> command = new ArrayList<>(prefix);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("org.mrconf.cli.MetaroceCommand");
        command.add("dut");
        command.add("serve");
        command.addAll(List.of(serveArguments));
        final Path log = Files.createTempFile("softdut", ".log");
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    /** Waits until {@code address} accepts TCP connections, or fails with the process's output. */
    static void awaitListening(final Process process, final InetSocketAddress address) throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("soft DUT exited with " + process.exitValue());
            }
            try (Socket socket = new Socket()) {
                socket.connect(address, 200);
                return;
            } catch (final IOException notYet) {
                Thread.sleep(50);
            }
        }
        throw new IllegalStateException("soft DUT did not listen on " + address + " within 30 s");
    }

    /** Stops a process with SIGTERM, then SIGKILL if it lingers. */
    static void stop(final Process process) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** A free local TCP or UDP port number (free now; a race is harmless here). */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Runs a command and fails with its output if it fails. */
    static String run(final String... command) throws IOException, InterruptedException {
        final Process process =
                new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + output.strip());
        }
        return output;
    }

    /** Runs a command and ignores its failure (for cleanup). */
    static void runQuietly(final String... command) {
        try {
            new ProcessBuilder(command).redirectErrorStream(true).start().waitFor(30, TimeUnit.SECONDS);
        } catch (final IOException | InterruptedException ignored) {
            // cleanup is best effort
        }
    }
}
