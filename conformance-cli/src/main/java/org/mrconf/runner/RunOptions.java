package org.mrconf.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * How a run goes: which cases ({@link Selection}), how the runner learns that the device is gone
 * ({@link LivenessProbe}), and how another thread stops it ({@link RunStop}).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record RunOptions(Selection selection, LivenessProbe liveness, RunStop stop) {
    public RunOptions {
        Objects.requireNonNull(selection, "selection");
        Objects.requireNonNull(liveness, "liveness");
        Objects.requireNonNull(stop, "stop");
    }

    /** A run nothing else stops. */
    public RunOptions(final Selection selection, final LivenessProbe liveness) {
        this(selection, liveness, new RunStop());
    }

    /** Every case; a device that is never lost. */
    public static RunOptions defaults() {
        return new RunOptions(Selection.ALL, LivenessProbe.alwaysAlive());
    }

    public RunOptions withSelection(final Selection newSelection) {
        return new RunOptions(newSelection, liveness, stop);
    }

    public RunOptions withLiveness(final LivenessProbe newLiveness) {
        return new RunOptions(selection, newLiveness, stop);
    }
}
