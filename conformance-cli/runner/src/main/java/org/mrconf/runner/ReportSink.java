package org.mrconf.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.nio.file.Path;
import org.apiguardian.api.API;
import org.mrconf.verdict.RunRecord;

/**
 * Where the run's record goes as it grows: the report writers, called after every case and once at the end (or from
 * the SIGINT hook). Must be idempotent and leave whole files, whatever moment it is called at.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@FunctionalInterface
public interface ReportSink {
    void write(Path runDir, RunRecord record) throws IOException;
}
