package org.mrconf.bundle;

import java.util.List;
import java.util.Set;

/**
 * The files of a bundle, relative to its top directory. {@code docs/submitting.md} describes them for reviewers;
 * the verifier requires every one of {@link #REQUIRED}.
 */
public final class BundleLayout {
    /** Reproduction steps for a reviewer, generated from the run. */
    public static final String README = "README.md";
    /** Who made the device and what it claims. */
    public static final String PRODUCT = "product.json";
    /** Suite version and commit, spec version, the exact command line, selection and timing of the run. */
    public static final String SUITE = "suite.json";
    /** Operating system, JDK, wire link and tester interface. */
    public static final String ENVIRONMENT = "environment.json";
    /** The test vectors the run used, with their SHA-256. */
    public static final String VECTORS = "vectors/manifest.json";
    /** The run folder: the four reports and the evidence pcaps, byte for byte as the run wrote them. */
    public static final String RUN = "run";

    public static final String REPORT_JSON = RUN + "/report.json";
    public static final String REPORT_HTML = RUN + "/report.html";
    public static final String JUNIT_XML = RUN + "/junit.xml";
    public static final String OCPTV_JSONL = RUN + "/ocptv.jsonl";
    /** Evidence pcap slices sit under this folder of the run folder. */
    public static final String EVIDENCE_DIR = "evidence";

    /** The device declaration the run was given, when the run named one and it could be read. */
    public static final String DUT_PROFILE = "dut-profile.json";
    /** The public key of the signer, PEM; a reviewer should pass the vendor's published key instead. */
    public static final String SIGNER_KEY = "signer.pub";
    /** SHA-256 of every other file, in {@code sha256sum} format. */
    public static final String MANIFEST = "MANIFEST.sha256";
    /** The raw 64-byte Ed25519 signature over {@link #MANIFEST}'s bytes. */
    public static final String SIGNATURE = "MANIFEST.sha256.sig";

    /** The run folder's files that a bundle must carry. */
    public static final List<String> RUN_REPORTS = List.of("report.json", "report.html", "junit.xml", "ocptv.jsonl");

    /** The files the verifier requires; the manifest and signature are checked first. */
    public static final List<String> REQUIRED =
            List.of(README, PRODUCT, SUITE, ENVIRONMENT, VECTORS, REPORT_JSON, REPORT_HTML, JUNIT_XML, OCPTV_JSONL);

    /** The files the manifest does not list: itself and the signature over it. */
    public static final Set<String> UNLISTED = Set.of(MANIFEST, SIGNATURE);

    private BundleLayout() {}
}
