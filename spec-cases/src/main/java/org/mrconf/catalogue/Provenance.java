package org.mrconf.catalogue;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** Where a clause comes from (spec section 2.3). */
@API(status = EXPERIMENTAL, since = "0.1")
public enum Provenance {
    /** Follows from Meta's public description of MetaRoCE. */
    PUB,
    /** An engineering choice of the open draft, anchored on an open protocol. */
    ENG
}
