package org.mrconf.runner;

import static org.junit.platform.engine.discovery.ClassNameFilter.includeClassNamePatterns;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.junit.platform.engine.FilterResult;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.PostDiscoveryFilter;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherFactory;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutSession;
import org.mrconf.cases.Verifies;

/**
 * Runs the conformance cases (every {@code *Case} class under {@code org.mrconf.cases}) against one
 * device through the JUnit Platform Launcher, exactly as any JUnit test runs, and turns the events into
 * {@link CaseResult}s, handing each to a listener as soon as it is known.
 */
public final class CaseRunner {
    static final String CASES_PACKAGE = "org.mrconf.cases";

    private CaseRunner() {}

    /** Runs every case; returns the results in the order they finished. */
    public static List<CaseResult> run(final DeviceUnderTest device, final Consumer<CaseResult> onResult)
            throws Exception {
        return run(device, clauses -> true, onResult);
    }

    /**
     * Runs the cases whose clauses {@code selection} accepts (it sees each case's {@code @Verifies} ids), e.g. only
     * the cases of the clauses a defect breaks; returns the results in the order they finished. Several runs may go
     * on at once in one JVM, each against its own device.
     */
    public static List<CaseResult> run(
            final DeviceUnderTest device, final Predicate<List<String>> selection, final Consumer<CaseResult> onResult)
            throws Exception {
        final Collector collector = new Collector(onResult);
        try (DutSession.Installed installed = DutSession.install(device)) {
            LauncherFactory.create()
                    .execute(
                            request()
                                    .selectors(selectPackage(CASES_PACKAGE))
                                    .filters(includeClassNamePatterns(".*Case"), byClauses(selection))
                                    .configurationParameter(DutSession.PARAMETER, installed.id())
                                    .build(),
                            collector);
        }
        return Collections.unmodifiableList(collector.results);
    }

    private static PostDiscoveryFilter byClauses(final Predicate<List<String>> selection) {
        return descriptor -> {
            if (descriptor.getSource().orElse(null) instanceof MethodSource source
                    && !selection.test(clausesOf(source.getJavaMethod()))) {
                return FilterResult.excluded("not selected");
            }
            return FilterResult.included("selected");
        };
    }

    static List<String> clausesOf(final Method method) {
        return Arrays.stream(method.getAnnotationsByType(Verifies.class))
                .map(Verifies::value)
                .toList();
    }

    /** The one listener: records start times and turns finished and skipped tests into results. */
    private static final class Collector implements TestExecutionListener {
        private final Consumer<CaseResult> onResult;
        private final List<CaseResult> results = Collections.synchronizedList(new ArrayList<>());
        private final Map<String, Long> started = new ConcurrentHashMap<>();

        Collector(final Consumer<CaseResult> onResult) {
            this.onResult = onResult;
        }

        @Override
        public void executionStarted(final TestIdentifier test) {
            started.put(test.getUniqueId(), System.nanoTime());
        }

        @Override
        public void executionSkipped(final TestIdentifier test, final String reason) {
            if (test.isTest()) {
                add(result(test, Verdict.SKIP, reason, 0));
            }
        }

        @Override
        public void executionFinished(final TestIdentifier test, final TestExecutionResult outcome) {
            if (!test.isTest()) {
                return;
            }
            final long duration = System.nanoTime() - started.getOrDefault(test.getUniqueId(), System.nanoTime());
            final Verdict verdict = switch (outcome.getStatus()) {
                case SUCCESSFUL -> Verdict.PASS;
                case FAILED -> Verdict.FAIL;
                case ABORTED -> Verdict.ABORTED;
            };
            add(result(
                    test,
                    verdict,
                    outcome.getThrowable().map(Throwable::toString).orElse(""),
                    duration));
        }

        private void add(final CaseResult result) {
            results.add(result);
            onResult.accept(result);
        }

        private static CaseResult result(
                final TestIdentifier test, final Verdict verdict, final String message, final long durationNs) {
            String caseId = test.getDisplayName();
            List<String> clauses = List.of();
            if (test.getSource().orElse(null) instanceof MethodSource source) {
                caseId = source.getJavaClass().getSimpleName() + "." + source.getMethodName();
                clauses = clausesOf(source.getJavaMethod());
            }
            return new CaseResult(caseId, test.getDisplayName(), clauses, verdict, message, durationNs);
        }
    }
}
