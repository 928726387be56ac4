package org.mrconf.architecture.apifixture;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** For {@code ApiMarksTest}: a public type with its mark, which the rule accepts. */
@API(status = EXPERIMENTAL, since = "0.1")
public class Marked {
    /** Nested types take their owner's status. */
    public static final class Nested {}
}
