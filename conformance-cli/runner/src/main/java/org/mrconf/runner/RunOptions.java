package org.mrconf.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import org.mrconf.peer.StallMonitor;

/**
 * How a run goes: which cases ({@link Selection}), how the runner learns that the device is gone
 * ({@link LivenessProbe}), how another thread stops it ({@link RunStop}), and where its test vectors are (absent: the
 * {@code metaroce.vectors} system property, else {@code test-vectors} in the working directory), and which part of the
 * run this is ({@link Part}: all of it, or one lane of a {@link LanedRun}), and which {@link StallMonitor} its timing
 * checks ask (absent: the runner starts one on the device link's clock for the run, or the lane, and stops it after).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record RunOptions(
        Selection selection,
        LivenessProbe liveness,
        RunStop stop,
        Optional<Path> vectorRoot,
        Part part,
        Optional<StallMonitor> stalls) {
    /** Which of the selected cases a run executes. */
    public enum Part {
        /** The Java cases and the test vectors. */
        ALL,
        /** The Java cases only. */
        CASES,
        /** The test vectors only. */
        VECTORS
    }

    public RunOptions {
        Objects.requireNonNull(selection, "selection");
        Objects.requireNonNull(liveness, "liveness");
        Objects.requireNonNull(stop, "stop");
        Objects.requireNonNull(vectorRoot, "vectorRoot");
        Objects.requireNonNull(part, "part");
        Objects.requireNonNull(stalls, "stalls");
    }

    /** A run whose stall monitor the runner starts. */
    public RunOptions(
            final Selection selection,
            final LivenessProbe liveness,
            final RunStop stop,
            final Optional<Path> vectorRoot,
            final Part part) {
        this(selection, liveness, stop, vectorRoot, part, Optional.empty());
    }

    /** The whole selection, cases and vectors. */
    public RunOptions(
            final Selection selection, final LivenessProbe liveness, final RunStop stop, final Optional<Path> root) {
        this(selection, liveness, stop, root, Part.ALL);
    }

    /** A run with the default vector root. */
    public RunOptions(final Selection selection, final LivenessProbe liveness, final RunStop stop) {
        this(selection, liveness, stop, Optional.empty());
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
        return new RunOptions(newSelection, liveness, stop, vectorRoot, part, stalls);
    }

    public RunOptions withLiveness(final LivenessProbe newLiveness) {
        return new RunOptions(selection, newLiveness, stop, vectorRoot, part, stalls);
    }

    /** The same run, stopped by {@code newStop} (a caller that ends the run once it has seen enough). */
    public RunOptions withStop(final RunStop newStop) {
        return new RunOptions(selection, liveness, newStop, vectorRoot, part, stalls);
    }

    /** The same run with its test vectors under {@code root}. */
    public RunOptions withVectorRoot(final Path root) {
        return new RunOptions(selection, liveness, stop, Optional.of(root), part, stalls);
    }

    /** The same run, executing only {@code newPart} of its selection. */
    public RunOptions withPart(final Part newPart) {
        return new RunOptions(selection, liveness, stop, vectorRoot, newPart, stalls);
    }

    /**
     * The same run with its timing checks asking {@code monitor}, which the caller starts and stops (a test records
     * stalls into it); the runner then starts none.
     */
    public RunOptions withStalls(final StallMonitor monitor) {
        return new RunOptions(selection, liveness, stop, vectorRoot, part, Optional.of(monitor));
    }
}
