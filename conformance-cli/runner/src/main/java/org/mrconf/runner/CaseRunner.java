package org.mrconf.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.junit.platform.engine.discovery.ClassNameFilter.includeClassNamePatterns;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

import java.lang.reflect.Method;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;
import org.junit.platform.engine.FilterResult;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.ClassNameFilter;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.PostDiscoveryFilter;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.mrconf.cases.Applicability;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutSession;
import org.mrconf.cases.Kind;
import org.mrconf.replay.VectorScope;
import org.mrconf.verdict.CaseKind;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Evidence;
import org.mrconf.verdict.Verdict;

/**
 * Runs the conformance cases (every {@code *Case} class under {@code org.mrconf.cases}) against one device through
 * the JUnit Platform Launcher, exactly as any JUnit test runs, and turns every event into a {@link CaseResult} with
 * its verdict (see {@link Outcomes}), handing each to a listener as soon as it is known.
 *
 * <p>This is the runner's public entry point; the CLI's {@code run}, the stability benchmark and the self-test use
 * it:
 *
 * <pre>{@code
 * List<CaseResult> results = CaseRunner.run(device, RunOptions.defaults(), result -> print(result));
 * }</pre>
 *
 * <p>No result vanishes: a case that JUnit never starts because its class failed ({@code @BeforeAll}, a class that
 * cannot be set up) or was skipped as a whole still gets a result (ERROR, or NOT_APPLICABLE with the reason). After a
 * case that did not pass the runner asks the {@link LivenessProbe} whether the device is still there; if it is not,
 * that case is ERROR and every later case ends at once as ERROR, without waiting for a timeout of its own.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class CaseRunner {
    static final String CASES_PACKAGE = "org.mrconf.cases";
    /** The simple name of the case class whose dynamic tests are the test vectors. */
    static final String VECTOR_CASE = "VectorCase";

    private CaseRunner() {}

    /** Runs every case with the default options; see {@link #run(DeviceUnderTest, RunOptions, RunListener)}. */
    public static List<CaseResult> run(final DeviceUnderTest device, final RunListener listener)
            throws NoCasesSelected {
        return run(device, RunOptions.defaults(), listener);
    }

    /**
     * Runs the selected cases against {@code device}.
     *
     * @return the results in the order the cases ended, one per selected case
     * @throws NoCasesSelected when the selection matches no case
     */
    public static List<CaseResult> run(
            final DeviceUnderTest device, final RunOptions options, final RunListener listener) throws NoCasesSelected {
        return run(device, options, listener, CASES_PACKAGE);
    }

    /** As {@link #run(DeviceUnderTest, RunOptions, RunListener)}, over the cases of another package (tests). */
    static List<CaseResult> run(
            final DeviceUnderTest device,
            final RunOptions options,
            final RunListener listener,
            final String casesPackage)
            throws NoCasesSelected {
        final LauncherDiscoveryRequestBuilder builder = request()
                .selectors(selectPackage(casesPackage))
                .filters(classFilter(options.part()), selectionFilter(options.selection()));
        // The vector case reads these (this run's, not the JVM's, so parallel runs keep their own): where the vectors
        // are, and the selected clauses, so that vectors of other clauses are not replayed only to be dropped.
        options.vectorRoot()
                .ifPresent(root -> builder.configurationParameter(VectorScope.ROOT_PARAMETER, root.toString()));
        if (!options.selection().clausePatterns().isEmpty()) {
            builder.configurationParameter(
                    VectorScope.CLAUSES_PARAMETER,
                    String.join(",", options.selection().clausePatterns()));
        }
        if (!options.selection().casePatterns().isEmpty()) {
            builder.configurationParameter(
                    VectorScope.CASES_PARAMETER,
                    String.join(",", options.selection().casePatterns()));
        }
        final LauncherDiscoveryRequest request = builder.build();
        final Launcher launcher = LauncherFactory.create();
        final TestPlan plan = launcher.discover(request);
        final long cases = plan.countTestIdentifiers(TestIdentifier::isTest);
        // Vectors are dynamic tests, not in the plan: a selection of vectors only (--case 'vector:*') is no empty one.
        if (cases == 0 && (options.part() == RunOptions.Part.CASES || !selectsAVector(options))) {
            throw new NoCasesSelected("no conformance case matches the selection "
                    + (options.selection().describe().isEmpty()
                            ? "(none found)"
                            : options.selection().describe()));
        }
        final Collector collector =
                new Collector(device, options.liveness(), listener, options.selection(), options.stop());
        // One stall monitor per run (per lane of a laned run), on the clock that stamps the link's packets, unless the
        // caller brought one: timing checks that miss by no more than the host's stall are INCONCLUSIVE.
        final org.mrconf.peer.StallMonitor started =
                options.stalls().isPresent() ? null : org.mrconf.peer.StallMonitor.start(device.link()::nowNs);
        final org.mrconf.peer.StallMonitor stalls = options.stalls().orElse(started);
        // A device sharing this host (the embedded reference) reports when the host held it back: its timers fired
        // late, which timing checks excuse as they do the tester's own stalls.
        device.link().reportDeviceStallsTo(stalls::record);
        try (DutSession.Installed installed = DutSession.install(device, stalls)) {
            final java.util.function.Consumer<String> markLost = installed::markLost;
            options.stop().attach(markLost);
            try {
                launcher.execute(plan, collector);
            } finally {
                options.stop().detach(markLost);
            }
        } finally {
            device.link().reportDeviceStallsTo(org.mrconf.dut.WireLink.DeviceStalls.NONE);
            if (started != null) {
                started.close();
            }
        }
        return Collections.unmodifiableList(new ArrayList<>(collector.results));
    }

    /** The case classes a part of the run executes: every {@code *Case}, all but the vector case, or that one only. */
    private static ClassNameFilter classFilter(final RunOptions.Part part) {
        return switch (part) {
            case ALL -> includeClassNamePatterns(".*Case");
            case CASES -> includeClassNamePatterns("^(?!.*\\." + VECTOR_CASE + "$).*Case$");
            case VECTORS -> includeClassNamePatterns(".*\\." + VECTOR_CASE);
        };
    }

    /** Whether the selection takes in at least one readable vector of the run's vector root. */
    private static boolean selectsAVector(final RunOptions options) {
        try {
            final java.nio.file.Path root = options.vectorRoot().orElse(VectorScope.defaultRoot());
            return org.mrconf.replay.VectorCorpus.discover(root, Applicability.catalogue()).vectors().stream()
                    .anyMatch(v -> options.selection()
                            .includesVector(
                                    VectorScope.CASE_PREFIX + v.id(),
                                    v.sidecar().clauses(),
                                    CaseKind.valueOf(v.sidecar().kind().toUpperCase(java.util.Locale.ROOT))));
        } catch (final java.io.IOException | RuntimeException e) {
            return false; // no readable corpus: the vector case reports why when it runs
        }
    }

    private static PostDiscoveryFilter selectionFilter(final Selection selection) {
        return descriptor -> {
            if (!descriptor.isTest()) {
                return FilterResult.included("a container");
            }
            final Optional<Method> method = method(descriptor);
            if (method.isEmpty()) {
                return FilterResult.included("not a method");
            }
            return selection.includes(method.get(), caseId(method.get()), kindOf(method.get()))
                    ? FilterResult.included("selected")
                    : FilterResult.excluded("not selected");
        };
    }

    private static Optional<Method> method(final TestDescriptor descriptor) {
        return descriptor
                .getSource()
                .filter(MethodSource.class::isInstance)
                .map(s -> ((MethodSource) s).getJavaMethod());
    }

    static String caseId(final Method method) {
        return method.getDeclaringClass().getSimpleName() + "." + method.getName();
    }

    static CaseKind kindOf(final Method method) {
        Kind kind = method.getAnnotation(Kind.class);
        if (kind == null) {
            kind = method.getDeclaringClass().getAnnotation(Kind.class);
        }
        return kind == null ? CaseKind.VALID : CaseKind.valueOf(kind.value().name());
    }

    /** The one listener: turns the launcher's events into results, and detects a lost device. */
    private static final class Collector implements TestExecutionListener {
        private final DeviceUnderTest device;
        private final LivenessProbe liveness;
        private final RunListener listener;
        private final Selection selection;
        private final RunStop stop;
        private final List<CaseResult> results = Collections.synchronizedList(new ArrayList<>());
        private final Map<String, Long> startedNs = new HashMap<>();
        private final Map<String, Instant> startedAt = new HashMap<>();
        private final Map<String, Boolean> done = new HashMap<>();
        private TestPlan plan;
        private int total;
        private int index;

        Collector(
                final DeviceUnderTest device,
                final LivenessProbe liveness,
                final RunListener listener,
                final Selection selection,
                final RunStop stop) {
            this.selection = selection;
            this.stop = stop;
            this.device = device;
            this.liveness = liveness;
            this.listener = listener;
        }

        @Override
        public void testPlanExecutionStarted(final TestPlan testPlan) {
            plan = testPlan;
            total = (int) testPlan.countTestIdentifiers(TestIdentifier::isTest);
            listener.planned(total);
        }

        @Override
        public void executionStarted(final TestIdentifier test) {
            startedNs.put(test.getUniqueId(), device.link().nowNs());
            startedAt.put(test.getUniqueId(), Instant.now());
            if (test.isTest()) {
                stop.caseStarted();
                DutSession.caseStarting();
                final Info info = info(test);
                listener.started(info.caseId, info.clauses, ++index, total);
            }
        }

        @Override
        public void executionSkipped(final TestIdentifier test, final String reason) {
            if (test.isTest()) {
                add(skipped(test, reason));
            } else {
                // A skipped class: JUnit reports none of its cases, so each gets the class's reason.
                for (final TestIdentifier child : plan.getDescendants(test)) {
                    if (child.isTest() && !done.containsKey(child.getUniqueId())) {
                        add(skipped(child, reason));
                    }
                }
            }
        }

        @Override
        public void executionFinished(final TestIdentifier test, final TestExecutionResult outcome) {
            if (test.isTest()) {
                try {
                    add(finished(test, outcome));
                } finally {
                    stop.caseEnded();
                }
                return;
            }
            if (outcome.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
                // A class that failed as a whole (@BeforeAll, its set-up): its cases that never ran are ERROR.
                final String why = "the case's class failed before the case ran: "
                        + outcome.getThrowable()
                                .map(Outcomes::message)
                                .orElse(outcome.getStatus().toString());
                for (final TestIdentifier child : plan.getDescendants(test)) {
                    if (child.isTest() && !done.containsKey(child.getUniqueId())) {
                        final Info info = info(child);
                        add(new CaseResult(
                                info.caseId,
                                child.getDisplayName(),
                                info.clauses,
                                info.kind,
                                Verdict.ERROR,
                                why,
                                startedAt.getOrDefault(test.getUniqueId(), Instant.now()),
                                0,
                                Evidence.NONE));
                    }
                }
            }
        }

        private CaseResult skipped(final TestIdentifier test, final String reason) {
            final Info info = info(test);
            final boolean lost = reason != null && reason.startsWith(DutSession.LOST_PREFIX);
            return new CaseResult(
                    info.caseId,
                    test.getDisplayName(),
                    info.clauses,
                    info.kind,
                    lost ? Verdict.ERROR : Verdict.NOT_APPLICABLE,
                    reason == null ? "" : reason,
                    Instant.now(),
                    0,
                    Evidence.NONE);
        }

        private CaseResult finished(final TestIdentifier test, final TestExecutionResult outcome) {
            final Info info = info(test);
            final long startNs =
                    startedNs.getOrDefault(test.getUniqueId(), device.link().nowNs());
            final long durationNs = device.link().nowNs() - startNs;
            Outcomes.Judged judged = Outcomes.judge(outcome, info.clauses, device.profile());
            final Optional<Throwable> recordingFailure =
                    DutSession.currentPeer().flatMap(p -> p.recorder().failure());
            if (judged.verdict() != Verdict.PASS && recordingFailure.isPresent()) {
                judged = new Outcomes.Judged(
                        Verdict.ERROR,
                        "the wire link failed while the case ran: " + recordingFailure.get() + "\n" + judged.message());
            }
            if (judged.verdict() != Verdict.PASS) {
                final Optional<String> gone = DutSession.lost().or(liveness::lostReason);
                if (gone.isPresent()) {
                    DutSession.markLost(gone.get());
                    judged = new Outcomes.Judged(
                            Verdict.ERROR,
                            "the device was lost during the case: " + gone.get() + "\nthe case saw: "
                                    + judged.message());
                }
            }
            final Evidence evidence = judged.verdict() == Verdict.PASS
                    ? Evidence.NONE
                    : EvidenceCollector.collect(info.caseId, outcome.getThrowable(), DutSession.currentPeer(), startNs);
            return new CaseResult(
                    info.caseId,
                    test.getDisplayName(),
                    info.clauses,
                    info.kind,
                    judged.verdict(),
                    judged.message(),
                    startedAt.getOrDefault(test.getUniqueId(), Instant.now()),
                    durationNs,
                    evidence);
        }

        private void add(final CaseResult result) {
            if (result.caseId().startsWith("vector:")
                    && !selection.includesVector(result.caseId(), result.clauses(), result.kind())) {
                return; // a vector outside the selection: dynamic tests cannot be filtered before they run
            }
            results.add(result);
            listener.finished(result);
        }

        private Info info(final TestIdentifier test) {
            done.put(test.getUniqueId(), Boolean.TRUE);
            if (test.getSource().orElse(null) instanceof MethodSource source) {
                final Method method = source.getJavaMethod();
                return new Info(caseId(method), Applicability.clausesOf(method), kindOf(method));
            }
            final Optional<java.nio.file.Path> sidecar = vectorSidecar(test);
            if (sidecar.isPresent()) {
                // A test vector (a dynamic test of VectorCase): its clauses and kind are in its vector.json.
                try {
                    final org.mrconf.replay.Sidecar read = new org.mrconf.replay.SidecarReader().read(sidecar.get());
                    return new Info(
                            "vector:" + read.id(),
                            read.clauses(),
                            CaseKind.valueOf(read.kind().toUpperCase(java.util.Locale.ROOT)));
                } catch (final org.mrconf.replay.VectorException | RuntimeException e) {
                    return new Info("vector:" + test.getDisplayName(), List.of(), CaseKind.VALID);
                }
            }
            return new Info(test.getDisplayName(), List.of(), CaseKind.VALID);
        }

        private record Info(String caseId, List<String> clauses, CaseKind kind) {}

        /** The {@code vector.json} a dynamic test stands for, if its source names one. */
        private static Optional<java.nio.file.Path> vectorSidecar(final TestIdentifier test) {
            final Object source = test.getSource().orElse(null);
            java.net.URI uri = null;
            if (source instanceof org.junit.platform.engine.support.descriptor.UriSource u) {
                uri = u.getUri();
            } else if (source instanceof org.junit.platform.engine.support.descriptor.FileSource f) {
                uri = f.getUri();
            }
            if (uri == null || !"file".equals(uri.getScheme()) || !uri.getPath().endsWith("/vector.json")) {
                return Optional.empty();
            }
            return Optional.of(java.nio.file.Path.of(uri));
        }

        @Override
        public void dynamicTestRegistered(final TestIdentifier test) {
            if (test.isTest()) {
                total++;
            }
        }
    }
}
