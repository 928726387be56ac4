package org.mrconf.replay;

import java.nio.file.Path;
import java.util.Optional;

/**
 * One vector folder: its sidecar, its stimulus capture, the capture of what the DUT should answer if the author gave
 * one, and its SHA-256 ({@link VectorFiles#digest}: over its lines of {@code MANIFEST.sha256}), which the reports
 * carry so a reviewer knows exactly what ran.
 *
 * @param folder   the folder
 * @param sidecar  {@code vector.json}, read
 * @param stimulus {@code stimulus.pcap}
 * @param expected {@code expected.pcap}, when present (informative: replay judges the sidecar's expectations)
 * @param sha256   hex SHA-256 of the vector's manifest lines ({@link VectorFiles#digest})
 */
public record TestVector(Path folder, Sidecar sidecar, Path stimulus, Optional<Path> expected, String sha256) {
    public static final String SIDECAR = "vector.json";
    public static final String STIMULUS = "stimulus.pcap";
    public static final String EXPECTED = "expected.pcap";

    public String id() {
        return sidecar.id();
    }
}
