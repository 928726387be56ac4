package org.mrconf.runner;

/** The outcome of one conformance case. */
public enum Verdict {
    PASS,
    FAIL,
    /** Not applicable to this device, or could not run; the message says why. */
    SKIP,
    /** Did not finish (an assumption or the run was aborted); the message says why. */
    ABORTED
}
