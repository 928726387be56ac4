package org.mrconf.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apiguardian.api.API;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.verdict.CaseResult;

/**
 * A run in two lanes at once: the Java cases against one instance of a device, the test vectors against a second,
 * identical instance. Only a device that can be started twice in the same state qualifies (the embedded reference,
 * with the same defects and declarations); a device behind a link has one state, which a vector's {@code reset}
 * would wipe under a running case, so it runs in one lane ({@link CaseRunner}).
 *
 * <p>Nothing about a case changes: each case and each vector still has its device to itself and runs exactly as in
 * one lane. The lanes share only the host's cores, and the cases hold their verdicts on a host loaded by far more
 * than a second lane (two CPU-bound processes, {@code reports/benchmarks/stability.md}). The run's results are both
 * lanes' results; the listener hears every event of both, one at a time.
 */
@API(status = EXPERIMENTAL, since = "0.3")
public final class LanedRun {
    private LanedRun() {}

    /**
     * Runs the Java cases of {@code options}' selection against {@code cases} and its vectors against {@code vectors}
     * at once.
     *
     * @return the results of both lanes in the order they ended
     * @throws NoCasesSelected when the selection matches neither a case nor a vector
     */
    public static List<CaseResult> run(
            final DeviceUnderTest cases,
            final DeviceUnderTest vectors,
            final RunOptions options,
            final RunListener listener)
            throws NoCasesSelected, InterruptedException {
        final Lanes lanes = new Lanes(listener);
        final ExecutorService vectorLane = Executors.newSingleThreadExecutor(runnable -> {
            final Thread thread = new Thread(runnable, "metaroce-vector-lane");
            thread.setDaemon(true);
            return thread;
        });
        try {
            final Future<List<CaseResult>> vectorResults =
                    vectorLane.submit(() -> lanes.run(1, vectors, options.withPart(RunOptions.Part.VECTORS)));
            NoCasesSelected noCase = null;
            final List<CaseResult> results = new ArrayList<>();
            try {
                results.addAll(lanes.run(0, cases, options.withPart(RunOptions.Part.CASES)));
            } catch (final NoCasesSelected e) {
                noCase = e;
            }
            try {
                results.addAll(vectorResults.get());
            } catch (final ExecutionException e) {
                if (!(e.getCause() instanceof NoCasesSelected)) {
                    throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                }
                if (noCase != null) {
                    throw noCase; // neither lane has anything to run
                }
            }
            return Collections.unmodifiableList(results);
        } finally {
            vectorLane.shutdownNow();
        }
    }

    /** The two lanes' events merged for one listener: one plan, one progress count, one call at a time. */
    private static final class Lanes {
        private final RunListener listener;
        /** Both lanes have discovered what they run (or found nothing), so the plan is known before any case. */
        private final CountDownLatch discovered = new CountDownLatch(2);

        private final int[] totals = new int[2];
        private int planned;
        private boolean announced;
        private int started;

        Lanes(final RunListener listener) {
            this.listener = listener;
        }

        List<CaseResult> run(final int lane, final DeviceUnderTest device, final RunOptions options)
                throws NoCasesSelected {
            final boolean[] counted = {false};
            try {
                return CaseRunner.run(device, options, new RunListener() {
                    @Override
                    public void planned(final int cases) {
                        counted[0] = true;
                        plannedBy(lane, cases);
                    }

                    @Override
                    public void started(
                            final String caseId, final List<String> clauses, final int index, final int total) {
                        startedIn(lane, caseId, clauses, total);
                    }

                    @Override
                    public void finished(final CaseResult result) {
                        synchronized (Lanes.this) {
                            listener.finished(result);
                        }
                    }
                });
            } finally {
                if (!counted[0]) {
                    discovered.countDown(); // the lane found nothing to run or failed: the other must not wait
                }
            }
        }

        private void plannedBy(final int lane, final int cases) {
            synchronized (this) {
                totals[lane] = cases;
                planned += cases;
            }
            discovered.countDown();
            try {
                discovered.await();
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            synchronized (this) {
                if (!announced) {
                    announced = true;
                    listener.planned(planned);
                }
            }
        }

        private synchronized void startedIn(
                final int lane, final String caseId, final List<String> clauses, final int laneTotal) {
            totals[lane] = laneTotal; // grows as the vector lane registers its vectors (dynamic tests)
            listener.started(caseId, clauses, ++started, totals[0] + totals[1]);
        }
    }
}
