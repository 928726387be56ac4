package org.mrconf.cases;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives conformance cases the installed {@link DeviceUnderTest}, and disables them, with the reason,
 * when no device is installed (as when an IDE runs them outside the runner).
 */
public final class DutExtension implements ParameterResolver, ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(final ExtensionContext context) {
        return DutSession.current().isPresent()
                ? ConditionEvaluationResult.enabled("device installed")
                : ConditionEvaluationResult.disabled("no device under test installed: run the cases through the metaroce runner");
    }

    @Override
    public boolean supportsParameter(final ParameterContext parameter, final ExtensionContext context) {
        return parameter.getParameter().getType() == DeviceUnderTest.class;
    }

    @Override
    public Object resolveParameter(final ParameterContext parameter, final ExtensionContext context) {
        return DutSession.current().orElseThrow(() -> new ParameterResolutionException("no device under test installed"));
    }
}
