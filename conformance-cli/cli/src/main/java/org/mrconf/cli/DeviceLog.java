package org.mrconf.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * While a run goes, what the process writes to standard error goes to {@code device.log} in the run folder, and with
 * {@code --verbose} to the console's error stream too: the embedded device's own log lines (slf4j-simple writes to
 * {@code System.err} as it is at each line, {@code simplelogger.properties}) never sit among the verdicts. The file is
 * created at the first byte, so a quiet run leaves none. Restores standard error when closed.
 */
final class DeviceLog implements AutoCloseable {
    /** The file's name in the run folder. */
    static final String FILE_NAME = "device.log";

    private final PrintStream saved;
    private final LazyFile file;

    private DeviceLog(final Path file, final boolean echo) {
        this.saved = System.err;
        this.file = new LazyFile(file, saved, echo);
        System.setErr(new PrintStream(this.file, true, StandardCharsets.UTF_8));
    }

    /** Starts sending standard error to {@code file} (and on to the present standard error when {@code echo}). */
    static DeviceLog capture(final Path file, final boolean echo) {
        return new DeviceLog(file, echo);
    }

    /** Whether anything was written, so that the file exists. */
    boolean written() {
        return file.bytes > 0;
    }

    Path file() {
        return file.path;
    }

    @Override
    public void close() {
        System.err.flush();
        System.setErr(saved);
        file.close();
    }

    /** The log file, opened (with its folder) at the first byte; a failure to write it falls back to the console. */
    private static final class LazyFile extends OutputStream {
        private final Path path;
        private final PrintStream console;
        private final boolean echo;
        private OutputStream out;
        private long bytes;
        private boolean broken;

        LazyFile(final Path path, final PrintStream console, final boolean echo) {
            this.path = path;
            this.console = console;
            this.echo = echo;
        }

        @Override
        public synchronized void write(final int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(final byte[] b, final int off, final int len) {
            if (echo || broken) {
                console.write(b, off, len);
            }
            if (broken) {
                return;
            }
            try {
                if (out == null) {
                    Files.createDirectories(path.toAbsolutePath().getParent());
                    out = Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                }
                out.write(b, off, len);
                bytes += len;
            } catch (final IOException e) {
                broken = true;
            }
        }

        @Override
        public synchronized void flush() {
            if (out != null) {
                try {
                    out.flush();
                } catch (final IOException e) {
                    broken = true;
                }
            }
        }

        @Override
        public synchronized void close() {
            if (out != null) {
                try {
                    out.close();
                } catch (final IOException e) {
                    broken = true;
                }
                out = null;
            }
        }
    }
}
