package org.mrconf.runner;

import java.io.IOException;
import java.nio.file.Path;
import org.mrconf.verdict.RunRecord;

/**
 * Where the run's record goes as it grows: the report writers, called after every case and once at the end (or from
 * the SIGINT hook). Must be idempotent and leave whole files, whatever moment it is called at.
 */
@FunctionalInterface
public interface ReportSink {
    void write(Path runDir, RunRecord record) throws IOException;
}
