package org.mrconf.verdict;

/** The ETSI kind of a test purpose: the device's behaviour on valid, invalid or inopportune stimulus. */
public enum CaseKind {
    VALID,
    INVALID,
    INOPPORTUNE
}
