package org.mrconf.cases;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives conformance cases the installed {@link DeviceUnderTest}, or a ready {@link Testbed} on it (2
 * paths, 1 stream, closed after the test), and disables them, with the reason, when no device is
 * installed (as when an IDE runs them outside the runner), when the device's declarations make them not
 * applicable, or when the device was lost earlier in the run ({@link Applicability}).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class DutExtension implements ParameterResolver, ExecutionCondition {
    private final Applicability applicability = new Applicability();

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(final ExtensionContext context) {
        return applicability.evaluateExecutionCondition(context);
    }

    @Override
    public boolean supportsParameter(final ParameterContext parameter, final ExtensionContext context) {
        final Class<?> type = parameter.getParameter().getType();
        return type == DeviceUnderTest.class || type == Testbed.class;
    }

    @Override
    public Object resolveParameter(final ParameterContext parameter, final ExtensionContext context) {
        final DeviceUnderTest dut = DutSession.current()
                .orElseThrow(() -> new ParameterResolutionException("no device under test installed"));
        if (parameter.getParameter().getType() == DeviceUnderTest.class) {
            return dut;
        }
        try {
            final Testbed testbed = Testbed.open(dut, 2, 1);
            // The store closes AutoCloseable values when the test ends, pass or fail.
            context.getStore(ExtensionContext.Namespace.create(DutExtension.class, context.getUniqueId()))
                    .put(Testbed.class, testbed);
            return testbed;
        } catch (final Exception e) {
            throw new ParameterResolutionException("cannot set up the testbed on " + dut.name() + ": " + e, e);
        }
    }
}
