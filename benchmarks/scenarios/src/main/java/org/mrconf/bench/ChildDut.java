package org.mrconf.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reference soft DUT in a child JVM with a small heap ({@code metaroce dut serve} on loopback), so
 * that a memory attack is measured against the heap a vendor's agent would have, and the benchmark's own
 * allocations do not count. Heap after GC is read with {@code jcmd}.
 */
final class ChildDut implements AutoCloseable {
    private static final Pattern USED = Pattern.compile("used (\\d+)K");

    private final Process process;
    private final Path log;
    final int udpPort;
    final int controlPort;

    private ChildDut(final Process process, final Path log, final int udpPort, final int controlPort) {
        this.process = process;
        this.log = log;
        this.udpPort = udpPort;
        this.controlPort = controlPort;
    }

    static ChildDut start(final String maxHeap, final int udpPort, final int controlPort) throws Exception {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + maxHeap);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("org.mrconf.cli.MetaroceCommand");
        command.addAll(List.of(
                "dut", "serve", "--port", Integer.toString(udpPort), "--control-port", Integer.toString(controlPort)));
        final Path log = Files.createTempFile("soak-dut", ".log");
        final Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        final ChildDut dut = new ChildDut(process, log, udpPort, controlPort);
        dut.awaitListening();
        return dut;
    }

    private void awaitListening() throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the soft DUT exited with " + process.exitValue() + ": " + output());
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", controlPort), 200);
                return;
            } catch (final IOException notYet) {
                Thread.sleep(50);
            }
        }
        throw new IllegalStateException("the soft DUT did not listen within 60 s: " + output());
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Heap in use right after a full collection, bytes. */
    long heapAfterGcBytes() throws Exception {
        jcmd("GC.run");
        final Matcher used = USED.matcher(jcmd("GC.heap_info"));
        if (!used.find()) {
            throw new IllegalStateException("jcmd GC.heap_info gave no 'used' figure");
        }
        return Long.parseLong(used.group(1)) * 1024;
    }

    private String jcmd(final String what) throws Exception {
        final Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        final Process p = new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), what)
                .redirectErrorStream(true)
                .start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("jcmd " + what + " failed: " + out);
        }
        return out;
    }

    /** Stops the DUT with SIGTERM; returns how long it took to exit, ms, or -1 if it had to be killed. */
    long stop() throws Exception {
        final long start = System.nanoTime();
        process.destroy();
        if (process.waitFor(10, TimeUnit.SECONDS)) {
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        }
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        return -1;
    }

    String output() throws IOException {
        return Files.readString(log);
    }

    @Override
    public void close() throws Exception {
        if (process.isAlive()) {
            stop();
        }
        Files.deleteIfExists(log);
    }
}
