package org.mrconf.dut;

/** The access flags of a registered region (spec section 11; {@code register_region}'s {@code access}). */
public enum RegionAccess {
    LOCAL_WRITE,
    REMOTE_WRITE,
    REMOTE_READ
}
