package org.mrconf.catalogue;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** The requirement level of a clause, as in BCP 14 (spec section 2.1). */
@API(status = EXPERIMENTAL, since = "0.1")
public enum Level {
    MUST,
    SHOULD,
    MAY
}
