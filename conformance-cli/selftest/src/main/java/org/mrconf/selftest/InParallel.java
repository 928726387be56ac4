package org.mrconf.selftest;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Runs one self-test job per item, {@code jobs} at once on daemon threads (each job starts its own embedded
 * reference), handing each result to a listener as it finishes, one at a time: the defect and the variant self-tests
 * share it.
 */
final class InParallel {
    /** One job: may block and throw. */
    @FunctionalInterface
    interface Job<T, R> {
        R run(T item) throws Exception;
    }

    private InParallel() {}

    /**
     * The results of {@code job} on each of {@code items}, in their order; {@code onEach} hears each as it finishes.
     * The first job's failure is rethrown as itself.
     */
    static <T, R> List<R> map(
            final int jobs,
            final String threadName,
            final List<? extends T> items,
            final Job<T, R> job,
            final Consumer<? super R> onEach)
            throws Exception {
        final ExecutorService pool = Executors.newFixedThreadPool(jobs, runnable -> {
            final Thread thread = new Thread(runnable, threadName);
            thread.setDaemon(true);
            return thread;
        });
        try {
            final List<Future<R>> futures = new ArrayList<>();
            for (final T item : items) {
                futures.add(pool.submit(() -> {
                    final R result = job.run(item);
                    synchronized (onEach) {
                        onEach.accept(result);
                    }
                    return result;
                }));
            }
            final List<R> results = new ArrayList<>();
            for (final Future<R> future : futures) {
                results.add(future.get());
            }
            return results;
        } catch (final ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } finally {
            pool.shutdownNow();
        }
    }
}
