package org.mrconf.catalogue;

/** The requirement level of a clause, as in BCP 14 (spec section 2.1). */
public enum Level {
    MUST,
    SHOULD,
    MAY
}
