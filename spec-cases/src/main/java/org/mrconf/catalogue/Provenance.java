package org.mrconf.catalogue;

/** Where a clause comes from (spec section 2.3). */
public enum Provenance {
    /** Follows from Meta's public description of MetaRoCE. */
    PUB,
    /** An engineering choice of the open draft, anchored on an open protocol. */
    ENG
}
