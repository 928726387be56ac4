package org.mrconf.pcap;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * A capture file that cannot be read or written: missing, empty, not a pcap/pcapng file, truncated, or of an
 * unsupported link type. The message always starts with the file's path.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class CaptureFileException extends IOException {

    private static final long serialVersionUID = 1L;

    private final transient Path file;

    /** @param file the capture file; @param problem what is wrong with it, in words */
    public CaptureFileException(Path file, String problem) {
        this(file, problem, null);
    }

    /** @param file the capture file; @param problem what is wrong; @param cause the underlying failure */
    public CaptureFileException(Path file, String problem, Throwable cause) {
        super(file + ": " + problem, cause);
        this.file = file;
    }

    /** The capture file the problem is about. */
    public Path file() {
        return file;
    }
}
