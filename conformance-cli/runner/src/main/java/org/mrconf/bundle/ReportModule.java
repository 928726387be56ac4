package org.mrconf.bundle;

import java.util.List;
import org.mrconf.report.JsonReportReader;
import org.mrconf.report.ReportInputException;
import org.mrconf.report.ReportSchemas;
import org.mrconf.report.RunFolderCheck;

/**
 * The bundle's view of the report module: its reader of report.json ({@link JsonReportReader}) and its checks of a
 * run folder ({@link RunFolderCheck}, the same as {@code metaroce report validate}: the schemas, the OCPTV rules,
 * the pcap slices, the page's structure). The bundle never has its own idea of the report formats.
 */
public final class ReportModule {
    private ReportModule() {}

    /** Reads report.json into a run record. */
    public static RunFolder.Reader reader() {
        return JsonReportReader::read;
    }

    /** Checks a run folder against the schemas bundled in the jar. */
    public static BundleVerifier.ReportValidator validator() {
        return validator(ReportSchemas.bundled());
    }

    /** Checks a run folder against {@code schemas}; each problem names its file inside the bundle. */
    public static BundleVerifier.ReportValidator validator(final ReportSchemas schemas) {
        return runDir -> {
            try {
                return RunFolderCheck.check(runDir, schemas).stream()
                        .map(problem -> BundleLayout.RUN + "/" + problem)
                        .toList();
            } catch (ReportInputException e) {
                return List.of(e.getMessage());
            }
        };
    }
}
