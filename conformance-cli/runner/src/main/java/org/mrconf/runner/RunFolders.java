package org.mrconf.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import org.apiguardian.api.API;

/** Where a run's reports go when its caller names no folder. */
@API(status = EXPERIMENTAL, since = "0.1")
public final class RunFolders {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");

    private RunFolders() {}

    /** {@code reports/runs/<UTC time>-<dut>/} under the working directory, {@code <dut>} made file-name safe. */
    public static Path defaultFor(final String target, final Clock clock) {
        final String time = STAMP.format(ZonedDateTime.now(clock.withZone(ZoneOffset.UTC)));
        String dut = target == null
                ? "embedded"
                : target.replaceAll("^.*[/\\\\]", "").replaceAll("\\.json$", "");
        dut = dut.replaceAll("[^A-Za-z0-9._-]+", "_").replaceAll("^_+|_+$", "");
        return Path.of("reports", "runs", time + "-" + (dut.isEmpty() ? "dut" : dut));
    }
}
