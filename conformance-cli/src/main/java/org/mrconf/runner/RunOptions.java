package org.mrconf.runner;

import java.util.Objects;

/**
 * How a run goes: which cases ({@link Selection}) and how the runner learns that the device is gone
 * ({@link LivenessProbe}).
 */
public record RunOptions(Selection selection, LivenessProbe liveness) {
    public RunOptions {
        Objects.requireNonNull(selection, "selection");
        Objects.requireNonNull(liveness, "liveness");
    }

    /** Every case; a device that is never lost. */
    public static RunOptions defaults() {
        return new RunOptions(Selection.ALL, LivenessProbe.alwaysAlive());
    }

    public RunOptions withSelection(final Selection newSelection) {
        return new RunOptions(newSelection, liveness);
    }

    public RunOptions withLiveness(final LivenessProbe newLiveness) {
        return new RunOptions(selection, newLiveness);
    }
}
