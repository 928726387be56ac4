package org.mrconf.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One {@link UdpChildMain} role in its own JVM (the same Java and class path as this one): its output is
 * read line by line on a daemon thread, so that a waiting caller can take the lines it expects, by prefix,
 * with a deadline, and a chatty logger can never block the child.
 */
final class ChildJvm implements AutoCloseable {
    private final Process process;
    private final String role;
    private final BlockingQueue<String> lines = new ArrayBlockingQueue<>(4096);
    private final StringBuilder transcript = new StringBuilder();

    private ChildJvm(final Process process, final String role) {
        this.process = process;
        this.role = role;
        final Thread reader = new Thread(this::read, "bench-child-" + role);
        reader.setDaemon(true);
        reader.start();
    }

    static ChildJvm start(final String maxHeap, final String... args) throws IOException {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + maxHeap);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(UdpChildMain.class.getName());
        command.addAll(List.of(args));
        return new ChildJvm(
                new ProcessBuilder(command).redirectErrorStream(true).start(), args[0]);
    }

    private void read() {
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                synchronized (transcript) {
                    if (transcript.length() < 20_000) {
                        transcript.append(line).append('\n');
                    }
                }
                lines.offer(line);
            }
        } catch (final IOException ended) {
            // the child exited; await() reports it
        }
    }

    /** The next line starting with {@code prefix}, split on spaces; fails if the child exits or time runs out. */
    String[] await(final String prefix, final long timeoutMs) throws InterruptedException {
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (System.nanoTime() - deadlineNs < 0) {
            final String line = lines.poll(100, TimeUnit.MILLISECONDS);
            if (line != null && line.startsWith(prefix)) {
                return line.split(" ");
            }
            if (line == null && !process.isAlive() && lines.isEmpty()) {
                throw new IllegalStateException("the " + role + " child exited with " + process.exitValue()
                        + " before '" + prefix + "': " + transcript());
            }
        }
        throw new IllegalStateException(
                "the " + role + " child gave no '" + prefix + "' within " + timeoutMs + " ms: " + transcript());
    }

    private String transcript() {
        synchronized (transcript) {
            return transcript.toString();
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
