package org.mrconf.cases.vectors;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.mrconf.cases.Applicability;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.NotApplicable;
import org.mrconf.catalogue.CatalogueException;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.catalogue.Profile;
import org.mrconf.replay.LinkRequirements;
import org.mrconf.replay.TestVector;
import org.mrconf.replay.VectorCorpus;
import org.mrconf.replay.VectorException;
import org.mrconf.replay.VectorReplay;
import org.mrconf.replay.VectorScope;

/**
 * Every test vector under the vector root ({@link VectorScope}: the run's configuration parameter or system property
 * {@value VectorScope#ROOT_PARAMETER}, default {@code test-vectors}) as one dynamic test, found at run time: a new
 * folder runs in the next run without a rebuild. A run selected by clause replays only the vectors of those clauses
 * ({@value VectorScope#CLAUSES_PARAMETER}), one selected by case id only the vectors whose {@code vector:<id>} matches
 * ({@value VectorScope#CASES_PARAMETER}). Each test's source is its {@code vector.json}, from which the runner reads
 * the clauses; a vector that cannot be read is an ERROR naming the file and field, and the others still run.
 */
@ExtendWith({DutExtension.class, VectorCase.ScopeResolver.class})
@DisplayName("Test vectors")
class VectorCase {
    @TestFactory
    @DisplayName("every vector folder, replayed")
    Stream<DynamicTest> vectors(final DeviceUnderTest dut, final VectorScope scope)
            throws IOException, CatalogueException {
        final ClauseCatalogue catalogue = new CatalogueLoader().loadBundled();
        final VectorCorpus corpus = VectorCorpus.discover(scope.root(), catalogue);
        final List<DynamicTest> tests = new ArrayList<>();
        for (final TestVector vector : corpus.vectors()) {
            if (!scope.includes(vector)) {
                continue;
            }
            tests.add(DynamicTest.dynamicTest(
                    vector.id(), vector.folder().resolve(TestVector.SIDECAR).toUri(), () -> {
                        final java.util.function.Predicate<String> claims =
                                p -> dut.profile().claims(Profile.fromSpecName(p));
                        final java.util.Optional<String> profiles =
                                vector.sidecar().profilesUnmet(claims);
                        if (profiles.isPresent()) {
                            // Every profile it needs is claimed: then it is about a device that claims less.
                            final boolean claimsMore =
                                    vector.sidecar().profiles().stream().allMatch(claims);
                            throw NotApplicable.because((claimsMore ? Applicability.CLAIMS_MORE : "") + profiles.get());
                        }
                        requireLinkFields(vector, dut);
                        requireLimits(vector, dut);
                        try {
                            VectorReplay.run(
                                    vector,
                                    dut.control(),
                                    dut.link(),
                                    VectorReplay.Declared.of(dut.profile().parameters()),
                                    org.mrconf.cases.DutSession.stalls(),
                                    org.mrconf.cases.DutSession::peerOpened);
                        } catch (final org.mrconf.replay.VectorNotApplicable e) {
                            // The device's configuration kept the vector's condition from arising.
                            throw NotApplicable.because(e.getMessage());
                        }
                    }));
        }
        for (final VectorException problem : corpus.problems()) {
            tests.add(DynamicTest.dynamicTest(
                    String.valueOf(problem.file()), problem.file().toUri(), () -> {
                        throw problem;
                    }));
        }
        return tests.stream();
    }

    /** A vector that asks of the link what it cannot give is NOT_APPLICABLE here ({@link LinkRequirements}). */
    private static void requireLinkFields(final TestVector vector, final DeviceUnderTest dut)
            throws org.mrconf.pcap.CaptureFileException, IOException {
        final java.util.Optional<String> unmet = LinkRequirements.unmet(vector, dut.link());
        if (unmet.isPresent()) {
            throw NotApplicable.because(Applicability.LINK_CANNOT + unmet.get());
        }
    }

    /**
     * A vector whose connection has more paths or streams than the device declares it supports (clause 3.1.3 asks a
     * multipath device for 8 paths; the 10.1.2 vector needs 64) cannot be set up on it: INCONCLUSIVE, since the
     * clause is shown neither way, and no control error is taken for the device's fault.
     */
    private static void requireLimits(final TestVector vector, final DeviceUnderTest dut) {
        final org.mrconf.dut.DutLimits limits = dut.profile().conformance().limits();
        final int paths = vector.sidecar().setup().paths();
        final int streams = vector.sidecar().setup().streams();
        if (paths > limits.maxPaths() || streams > limits.maxStreams()) {
            throw org.mrconf.cases.Inconclusive.because(String.format(
                    "the vector's connection has %d paths and %d streams, more than the device declares it supports"
                            + " (maxPaths %d, maxStreams %d), so this vector cannot show the clause either way on it",
                    paths, streams, limits.maxPaths(), limits.maxStreams()));
        }
    }

    /** Gives the factory the run's {@link VectorScope}, from its configuration parameters. */
    static final class ScopeResolver implements ParameterResolver {
        @Override
        public boolean supportsParameter(final ParameterContext parameter, final ExtensionContext context) {
            return parameter.getParameter().getType() == VectorScope.class;
        }

        @Override
        public Object resolveParameter(final ParameterContext parameter, final ExtensionContext context) {
            return VectorScope.of(
                    context.getConfigurationParameter(VectorScope.ROOT_PARAMETER),
                    context.getConfigurationParameter(VectorScope.CLAUSES_PARAMETER),
                    context.getConfigurationParameter(VectorScope.CASES_PARAMETER));
        }
    }
}
