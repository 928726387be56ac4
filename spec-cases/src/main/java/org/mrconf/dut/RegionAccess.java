package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;

/** The access flags of a registered region (spec section 11; {@code register_region}'s {@code access}). */
@API(status = MAINTAINED, since = "0.1")
public enum RegionAccess {
    LOCAL_WRITE,
    REMOTE_WRITE,
    REMOTE_READ
}
