package org.mrconf.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apiguardian.api.API;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.dut.ControlEndpoint;
import org.mrconf.dut.DutControl;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.JsonLineControlClient;
import org.mrconf.report.ReportWriters;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;

/**
 * One whole conformance run against one device, as {@code metaroce run} does it and any other program may: the cases
 * (and, given a second instance of the device, the test vectors on a second lane), the reports written into the run
 * folder after every case, and on SIGINT or SIGTERM the reports marked interrupted and the device reset. The outcome
 * carries the record and the exit code the CLI documents.
 *
 * <pre>{@code
 * ConformanceRun.Outcome outcome = ConformanceRun.of(device, journal, runDir)
 *         .options(new RunOptions(selection, liveness, new RunStop()))
 *         .run(listener);
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ConformanceRun {
    /** Every applicable MUST clause passed. */
    public static final int EXIT_PASSED = 0;
    /** A clause failed, or a MUST clause is inconclusive. */
    public static final int EXIT_FAILED = 1;
    /** The harness erred or the device was lost. */
    public static final int EXIT_HARNESS = 3;

    private static final Duration CLEANUP_WAIT = Duration.ofSeconds(3);

    private final DeviceUnderTest device;
    private final RunJournal journal;
    private final Path runDir;
    private DeviceUnderTest vectorLane;
    private RunOptions options = RunOptions.defaults();
    private ReportSink reports = ReportWriters::writeAll;
    private Optional<ControlEndpoint> control = Optional.empty();
    private Consumer<String> notices = line -> {};
    private boolean handleShutdown = true;

    private ConformanceRun(final DeviceUnderTest device, final RunJournal journal, final Path runDir) {
        this.device = Objects.requireNonNull(device, "device");
        this.journal = Objects.requireNonNull(journal, "journal");
        this.runDir = Objects.requireNonNull(runDir, "runDir");
    }

    /** A run of {@code device}, recorded in {@code journal}, with its reports in {@code runDir}. */
    public static ConformanceRun of(final DeviceUnderTest device, final RunJournal journal, final Path runDir) {
        return new ConformanceRun(device, journal, runDir);
    }

    /** Which cases, liveness and stop; default: every case, a device never lost. */
    public ConformanceRun options(final RunOptions newOptions) {
        this.options = Objects.requireNonNull(newOptions, "options");
        return this;
    }

    /** A second instance of the same device for the test vectors (a second lane); absent: one lane. */
    public ConformanceRun vectorLane(final Optional<DeviceUnderTest> lane) {
        this.vectorLane = lane.orElse(null);
        return this;
    }

    /** Where the reports go; default: the four report files and the evidence slices. */
    public ConformanceRun reports(final ReportSink sink) {
        this.reports = Objects.requireNonNull(sink, "reports");
        return this;
    }

    /** The device's control endpoint, for the reset after an interrupted run; absent for an in-process device. */
    public ConformanceRun control(final Optional<ControlEndpoint> endpoint) {
        this.control = Objects.requireNonNull(endpoint, "control");
        return this;
    }

    /** Where the run says what happened outside the verdicts (a report it could not write, an interruption). */
    public ConformanceRun notices(final Consumer<String> sink) {
        this.notices = Objects.requireNonNull(sink, "notices");
        return this;
    }

    /** Whether SIGINT or SIGTERM writes the reports marked interrupted and resets the device (default true). */
    public ConformanceRun handleShutdown(final boolean handle) {
        this.handleShutdown = handle;
        return this;
    }

    /** What a finished run leaves. */
    public record Outcome(RunRecord record, List<CaseResult> results, int exitCode) {
        public Outcome {
            results = List.copyOf(results);
        }
    }

    /**
     * Runs the selection; {@code listener} hears of every case (after its result is in the journal and the reports).
     *
     * @throws NoCasesSelected when the selection matches no case; nothing is written then
     */
    public Outcome run(final RunListener listener) throws Exception {
        Files.createDirectories(runDir);
        final AtomicBoolean finished = new AtomicBoolean();
        final RunStop stop = options.stop();
        final Thread hook = handleShutdown ? interruptHook(stop, finished) : null;
        if (hook != null) {
            Runtime.getRuntime().addShutdownHook(hook);
        }
        final List<CaseResult> results;
        try {
            final RunListener recording = new RunListener() {
                @Override
                public void planned(final int count) {
                    listener.planned(count);
                }

                @Override
                public void started(final String caseId, final List<String> ids, final int index, final int total) {
                    listener.started(caseId, ids, index, total);
                }

                @Override
                public void finished(final CaseResult result) {
                    if (finished.get()) {
                        return; // interrupted: the hook wrote the reports, a late case must not
                    }
                    journal.add(result);
                    listener.finished(result);
                    write(journal.snapshot(false, false));
                }
            };
            results = vectorLane == null
                    ? CaseRunner.run(device, options, recording)
                    : LanedRun.run(device, vectorLane, options, recording);
        } finally {
            if (finished.compareAndSet(false, true) && hook != null) {
                removeHook(hook);
            }
        }
        final RunRecord record = journal.snapshot(true, false);
        write(record);
        return new Outcome(record, results, exitCode(record.clauses()));
    }

    /** 3 when the harness erred or lost the device, else 1 when a clause failed or a MUST clause is undecided. */
    public static int exitCode(final List<ClauseResult> clauses) {
        if (clauses.stream().anyMatch(c -> c.verdict() == Verdict.ERROR)) {
            return EXIT_HARNESS;
        }
        if (clauses.stream()
                .anyMatch(c -> c.verdict() == Verdict.FAIL
                        || (c.verdict() == Verdict.INCONCLUSIVE && "MUST".equals(c.level())))) {
            return EXIT_FAILED;
        }
        return EXIT_PASSED;
    }

    /**
     * On SIGINT (or SIGTERM) during the run: write the reports marked interrupted, stop the cases, then leave the
     * device clean ({@code reset} on a fresh control connection), waiting at most {@link #CLEANUP_WAIT} for each.
     */
    private Thread interruptHook(final RunStop stop, final AtomicBoolean finished) {
        return new Thread(
                () -> {
                    if (!finished.compareAndSet(false, true)) {
                        return;
                    }
                    // The cases' thread runs on while the JVM shuts down: let it start no further case.
                    stop.request("the run was interrupted");
                    journal.markInterrupted();
                    write(journal.snapshot(false, true));
                    notices.accept(String.format(
                            "%nInterrupted: %d cases recorded; reports (marked interrupted) in %s",
                            journal.cases().size(), runDir));
                    control.ifPresent(endpoint -> {
                        // The case in flight must end before the reset, or it re-creates its connection after it:
                        // closing the run's control connection makes its next request fail at once.
                        closeQuietly(device.control());
                        notices.accept(awaitCaseInFlight(stop));
                        notices.accept(cleanUp(endpoint));
                    });
                },
                "metaroce-interrupted");
    }

    private static String awaitCaseInFlight(final RunStop stop) {
        try {
            return stop.awaitIdle(CLEANUP_WAIT)
                    ? "the case in flight was stopped"
                    : "the case in flight did not stop within " + CLEANUP_WAIT.toMillis() + " ms";
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while waiting for the case in flight";
        }
    }

    /** Resets the device on a fresh connection, within {@link #CLEANUP_WAIT}; says what happened. */
    static String cleanUp(final ControlEndpoint endpoint) {
        final String[] outcome = {"the device did not answer reset within " + CLEANUP_WAIT.toMillis() + " ms"};
        final Thread reset = new Thread(
                () -> {
                    try (DutControl fresh = JsonLineControlClient.connect(endpoint, CLEANUP_WAIT, CLEANUP_WAIT)) {
                        fresh.reset();
                        synchronized (outcome) {
                            outcome[0] = "the device was reset: no connection or region of the run is left on it";
                        }
                    } catch (final DutControlException e) {
                        synchronized (outcome) {
                            outcome[0] = "could not reset the device: " + e.getMessage();
                        }
                    }
                },
                "metaroce-cleanup");
        reset.setDaemon(true);
        reset.start();
        try {
            reset.join(CLEANUP_WAIT.toMillis() + 500);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (outcome) {
            return outcome[0];
        }
    }

    private void write(final RunRecord record) {
        try {
            reports.write(runDir, record);
        } catch (final IOException | RuntimeException e) {
            notices.accept("metaroce: cannot write the reports in " + runDir + ": " + e.getMessage());
        }
    }

    private static void closeQuietly(final AutoCloseable resource) {
        try {
            resource.close();
        } catch (final Exception ignored) {
            // the run's connection is being abandoned either way
        }
    }

    private static void removeHook(final Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (final IllegalStateException shuttingDown) {
            // the JVM is already exiting: the hook runs and finds the run finished
        }
    }
}
