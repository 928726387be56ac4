package org.mrconf.bundle;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.mrconf.verdict.RunRecord;

/**
 * The sibling reports say what report.json, the file of record, says. The manifest protects junit.xml and
 * ocptv.jsonl from change after signing, but a vendor who signs again could ship a junit.xml that shows all green
 * beside a report.json with a FAIL, and CI dashboards read junit.xml, OCP tooling ocptv.jsonl. Each mismatch is one
 * problem naming the file, the case or clause, and both values ({@link JunitAgreement}, {@link OcptvAgreement}).
 */
final class SiblingReportsCheck {
    /** The check name every problem of this check starts with. */
    static final String CHECK = "siblings";

    private SiblingReportsCheck() {}

    /**
     * @param root   the bundle's top directory
     * @param record the run as report.json records it
     */
    static List<Problem> check(final Path root, final RunRecord record) throws IOException {
        final List<Problem> problems = new ArrayList<>();
        final Path junit = root.resolve(BundleLayout.JUNIT_XML);
        final Path ocptv = root.resolve(BundleLayout.OCPTV_JSONL);
        // A missing file is already a bundle and hash problem; there is nothing to compare.
        if (Files.isRegularFile(junit)) {
            problems.addAll(JunitAgreement.check(junit, record));
        }
        if (Files.isRegularFile(ocptv)) {
            problems.addAll(OcptvAgreement.check(ocptv, record));
        }
        return problems;
    }
}
