package org.mrconf.bundle;

import java.util.EnumMap;
import java.util.Map;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;

/** The bundle's {@code README.md}: what it is, how a reviewer checks it, and how to reproduce the run. */
final class BundleReadme {
    private BundleReadme() {}

    static String text(final RunRecord record, final boolean hasProfile, final boolean signed) {
        final RunRecord.DutDescription dut = record.dut();
        final StringBuilder t = new StringBuilder();
        t.append("# MetaRoCE conformance submission: ")
                .append(line(dut.vendor()))
                .append(' ')
                .append(line(dut.model()))
                .append("\n\n");
        t.append("A conformance run of the MetaRoCE Open Conformance Suite, an open and independent suite for the\n")
                .append(
                        "MetaRoCE Open Draft. Neither is Meta's specification or test suite, nor endorsed by Meta.\n\n");
        t.append("| | |\n| --- | --- |\n");
        row(
                t,
                "Device",
                dut.vendor() + " " + dut.model() + ", firmware " + dut.firmware() + ", driver " + dut.driver());
        row(t, "Claimed profiles", String.join(", ", dut.profiles()));
        row(
                t,
                "Declared optional clauses",
                dut.optionalClauses().isEmpty() ? "none" : String.join(", ", dut.optionalClauses()));
        row(t, "Suite", record.suiteVersion() + " (commit " + record.suiteCommit() + ")");
        row(t, "Spec", "MetaRoCE Open Draft " + record.specVersion());
        row(t, "Link", dut.link());
        row(t, "Started", record.startedAt().toString());
        row(t, "Finished", record.finishedAt().map(Object::toString).orElse("never (the run did not finish)"));
        row(t, "Clause verdicts", counts(record));
        t.append('\n');

        t.append("## Files\n\n")
                .append(
                        "- `product.json`: the device's identity and claims; `suite.json`: suite, spec, command line;\n")
                .append(
                        "  `environment.json`: OS, JDK, link, tester interface; `vectors/manifest.json`: test vectors.\n")
                .append("- `run/`: the run folder as the suite wrote it: `report.json` (the file of record),\n")
                .append(
                        "  `report.html` (open it in a browser, offline), `junit.xml`, `ocptv.jsonl`, `evidence/*.pcap`.\n");
        if (hasProfile) {
            t.append("- `dut-profile.json`: the device declaration the run was given (any control token redacted).\n");
        }
        t.append("- `MANIFEST.sha256`: the SHA-256 of every other file; `MANIFEST.sha256.sig`: the Ed25519\n")
                .append("  signature over it (64 raw bytes); `signer.pub`: the key that made it.\n\n");

        t.append("## Check this bundle\n\n")
                .append("With the suite (offline; exit 0 means acceptable, otherwise one line per problem):\n\n")
                .append("    ./metaroce bundle verify THIS-BUNDLE.tar.gz --pubkey VENDOR-KEY.pub\n\n")
                .append(
                        "Use the key the vendor published, not `signer.pub` from inside the bundle: anyone can sign a\n")
                .append("bundle with a key of their own. Without the suite, the integrity part alone:\n\n")
                .append("    sha256sum -c MANIFEST.sha256\n")
                .append("    openssl pkeyutl -verify -pubin -inkey VENDOR-KEY.pub -rawin -in MANIFEST.sha256 \\\n")
                .append("        -sigfile MANIFEST.sha256.sig\n\n");
        if (!signed) {
            t.append("**This bundle is not signed**: it was made without `--key`, and `verify` rejects it.\n\n");
        }

        t.append("## Reproduce the run\n\n")
                .append(checkout(record))
                .append("2. Bring the device up as the run had it: the same firmware and driver (see `product.json`)")
                .append(
                        hasProfile
                                ? ",\n   and the device declaration `dut-profile.json` (put the control token back)"
                                : "")
                .append(".\n")
                .append("3. Run exactly the command the run was given:\n\n       ")
                .append(line(record.commandLine()))
                .append("\n\n");
        if (!record.selection().isEmpty()) {
            t.append("   The run selected ")
                    .append(line(record.selection().toString()))
                    .append(".\n\n");
        }
        t.append("4. Compare the new `report.json` with `run/report.json`: the clause verdicts must agree. A run\n")
                .append("   that is not reproducible is a finding in itself.\n");
        return t.toString();
    }

    private static String checkout(final RunRecord record) {
        if (SuiteIdentity.UNKNOWN.equals(record.suiteCommit())) {
            return "1. Get suite version " + line(record.suiteVersion()) + " and build it (JDK 17, Maven). The run did"
                    + " not record its git commit,\n   so the exact sources are not known:\n\n"
                    + "       mvn -B -q -DskipTests package\n\n";
        }
        return "1. Get the suite at the commit the run used and build it (JDK 17, Maven):\n\n       git checkout "
                + line(record.suiteCommit()) + "\n       mvn -B -q -DskipTests package\n\n";
    }

    private static String counts(final RunRecord record) {
        final Map<Verdict, Integer> counts = new EnumMap<>(Verdict.class);
        for (final ClauseResult clause : record.clauses()) {
            counts.merge(clause.verdict(), 1, Integer::sum);
        }
        final StringBuilder text = new StringBuilder();
        counts.forEach((verdict, n) -> text.append(text.length() == 0 ? "" : ", ")
                .append(n)
                .append(' ')
                .append(verdict));
        return text.length() == 0 ? "none" : text.toString();
    }

    private static void row(final StringBuilder t, final String name, final String value) {
        t.append("| ")
                .append(name)
                .append(" | ")
                .append(line(value).replace("|", "\\|"))
                .append(" |\n");
    }

    /** Device strings are the vendor's: keep each on one line so they cannot forge a section. */
    private static String line(final String value) {
        return value.replaceAll("[\\r\\n\\t]+", " ");
    }
}
