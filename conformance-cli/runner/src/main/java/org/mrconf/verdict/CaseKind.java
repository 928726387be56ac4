package org.mrconf.verdict;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;

/** The ETSI kind of a test purpose: the device's behaviour on valid, invalid or inopportune stimulus. */
@API(status = MAINTAINED, since = "0.1")
public enum CaseKind {
    VALID,
    INVALID,
    INOPPORTUNE
}
