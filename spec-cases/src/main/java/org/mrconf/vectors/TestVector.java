package org.mrconf.vectors;

import java.nio.file.Path;
import java.util.Optional;

/**
 * One vector folder: its sidecar, its stimulus capture, the capture of what the DUT should answer if the author gave
 * one, and the SHA-256 over the three files, which the reports carry so a reviewer knows exactly what ran.
 *
 * @param folder   the folder
 * @param sidecar  {@code vector.json}, read
 * @param stimulus {@code stimulus.pcap}
 * @param expected {@code expected.pcap}, when present (informative: replay judges the sidecar's expectations)
 * @param sha256   hex SHA-256 over the files' names and bytes, in that order
 */
public record TestVector(Path folder, Sidecar sidecar, Path stimulus, Optional<Path> expected, String sha256) {
    public static final String SIDECAR = "vector.json";
    public static final String STIMULUS = "stimulus.pcap";
    public static final String EXPECTED = "expected.pcap";

    public String id() {
        return sidecar.id();
    }
}
