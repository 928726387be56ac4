package org.mrconf.cases;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.mrconf.catalogue.CatalogueException;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.Clause;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.catalogue.Level;
import org.mrconf.dut.DeviceDeclaration;

/**
 * Decides, from the device's declarations alone, whether a case applies to it (the NOT_APPLICABLE verdict of
 * ISO/IEC 9646): a case is disabled, with the reason, when one of the clauses it verifies belongs to a profile the
 * device does not claim, or is a MAY clause the device does not declare (spec clause 12.1.2). A SHOULD clause always
 * runs; the runner turns a miss of an undeclared SHOULD clause into WARN. Disabling a case that verifies several
 * clauses because one of them does not apply is deliberate: its checks depend on the feature that clause needs.
 *
 * <p>Once the device is lost ({@link DutSession#markLost}), every case not yet run is disabled with a reason that
 * starts with {@link DutSession#LOST_PREFIX}, so the rest of the run ends at once; the runner reports those cases
 * ERROR, never NOT_APPLICABLE.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Applicability implements ExecutionCondition {
    /**
     * The reason of a case that is not applicable because the wire link cannot carry it out (e.g. raw frames over
     * the in-memory link) starts with this, unlike one the device's declarations decide: the clause was not shown
     * either way, and a submission bundle says so rather than counting the device as having skipped it.
     */
    public static final String LINK_CANNOT = "the wire link cannot carry this case: ";

    /**
     * How a NOT_APPLICABLE reason begins when the check is about a device that claims less than this one (clauses
     * 5.6.7, 8.2.6): not a claim skipped, so a submission bundle does not count it as one.
     */
    public static final String CLAIMS_MORE = "the device claims more than this check is about: ";

    private static final ClauseCatalogue CATALOGUE = loadCatalogue();

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(final ExtensionContext context) {
        final Optional<DeviceUnderTest> device = DutSession.current();
        if (device.isEmpty()) {
            return ConditionEvaluationResult.disabled(
                    "no device under test installed: run the cases through the metaroce runner");
        }
        final Optional<String> lost = DutSession.lost();
        if (lost.isPresent()) {
            return ConditionEvaluationResult.disabled(DutSession.LOST_PREFIX + lost.get());
        }
        final Optional<Method> method = context.getTestMethod();
        if (method.isEmpty()) {
            return ConditionEvaluationResult.enabled("a case class; its cases are judged one by one");
        }
        return notApplicableReason(clausesOf(method.get()), device.get().profile())
                .map(ConditionEvaluationResult::disabled)
                .orElseGet(() -> ConditionEvaluationResult.enabled("applies to the device's declarations"));
    }

    /**
     * Why a case verifying {@code clauseIds} does not apply to a device with {@code profile}, or empty when it
     * applies. Unknown clause ids are left to the catalogue test; they never make a case not applicable.
     */
    public static Optional<String> notApplicableReason(final List<String> clauseIds, final DeviceDeclaration profile) {
        final List<String> reasons = new ArrayList<>();
        for (final String id : clauseIds) {
            final Optional<Clause> clause = CATALOGUE.find(id);
            if (clause.isEmpty()) {
                continue;
            }
            if (!profile.claims(clause.get().profile())) {
                reasons.add("clause " + id + " belongs to profile '"
                        + clause.get().profile() + "', which the device does not claim");
            } else if (clause.get().level() == Level.MAY && !profile.implementsOptional(id)) {
                reasons.add(
                        "clause " + id + " is a MAY clause the device does not declare (conformance.optionalClauses)");
            }
        }
        return reasons.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", reasons));
    }

    /** The clause ids a case verifies: its method's {@link Verifies} annotations, then its class's. */
    public static List<String> clausesOf(final Method method) {
        final Set<String> ids = new LinkedHashSet<>();
        addClauses(method, ids);
        addClauses(method.getDeclaringClass(), ids);
        return List.copyOf(ids);
    }

    /** The catalogue the suite was built with (bundled). */
    public static ClauseCatalogue catalogue() {
        return CATALOGUE;
    }

    private static void addClauses(final AnnotatedElement element, final Set<String> ids) {
        for (final Verifies verifies : element.getAnnotationsByType(Verifies.class)) {
            ids.add(verifies.value());
        }
    }

    private static ClauseCatalogue loadCatalogue() {
        try {
            return new CatalogueLoader().loadBundled();
        } catch (final CatalogueException e) {
            throw new IllegalStateException("the bundled clause catalogue is broken: " + e.getMessage(), e);
        }
    }
}
