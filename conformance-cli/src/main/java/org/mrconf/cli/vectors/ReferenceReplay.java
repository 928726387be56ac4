package org.mrconf.cli.vectors;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.mrconf.catalogue.Profile;
import org.mrconf.defect.Defects;
import org.mrconf.embedded.EmbeddedReferenceDut;
import org.mrconf.embedded.ReferenceConfiguration;
import org.mrconf.vectors.LinkRequirements;
import org.mrconf.vectors.TestVector;
import org.mrconf.vectors.VectorCorpus;
import org.mrconf.vectors.VectorReplay;

/**
 * Replays every vector of a corpus against the clean embedded reference, each once, in the first configuration that
 * claims its profiles and whose link carries it (IPv6 and whole frames have configurations of their own), with the
 * reference's declarations. For the build's check that the reference meets the whole corpus and for
 * {@code bench vectors}.
 */
public final class ReferenceReplay {
    /**
     * One vector's replay: where it ran (empty when no configuration carries it) and, if it failed, why.
     *
     * @param seconds how long the replay took
     */
    public record Outcome(
            TestVector vector,
            Optional<ReferenceConfiguration> configuration,
            double seconds,
            Optional<String> failure) {}

    private ReferenceReplay() {}

    /** The outcome of every vector of {@code corpus}, in the corpus's order. */
    public static List<Outcome> run(final VectorCorpus corpus) throws Exception {
        final java.util.Map<String, Outcome> byId = new java.util.HashMap<>();
        for (final ReferenceConfiguration configuration : ReferenceConfiguration.values()) {
            try (EmbeddedReferenceDut reference = EmbeddedReferenceDut.start(Defects.of(), configuration)) {
                for (final TestVector vector : corpus.vectors()) {
                    if (byId.containsKey(vector.id())
                            || unmet(reference, vector).isPresent()) {
                        continue;
                    }
                    final long startNs = System.nanoTime();
                    Optional<String> failure = Optional.empty();
                    try {
                        replay(reference, vector);
                    } catch (final AssertionError e) {
                        failure = Optional.of(e.getMessage());
                    }
                    byId.put(
                            vector.id(),
                            new Outcome(
                                    vector, Optional.of(configuration), (System.nanoTime() - startNs) / 1e9, failure));
                }
            }
        }
        final List<Outcome> outcomes = new ArrayList<>();
        for (final TestVector vector : corpus.vectors()) {
            outcomes.add(byId.getOrDefault(
                    vector.id(),
                    new Outcome(
                            vector,
                            Optional.empty(),
                            0,
                            Optional.of("no configuration of the reference claims its profiles and carries it"))));
        }
        return outcomes;
    }

    /**
     * Why {@code reference} cannot replay {@code vector}: a profile it does not claim, or what its link cannot give
     * ({@link LinkRequirements}); empty when it can.
     */
    static Optional<String> unmet(final EmbeddedReferenceDut reference, final TestVector vector) throws Exception {
        final Optional<String> profiles =
                vector.sidecar().profilesUnmet(p -> reference.device().profile().claims(Profile.fromSpecName(p)));
        if (profiles.isPresent()) {
            return profiles;
        }
        return LinkRequirements.unmet(vector, reference.device().link());
    }

    /** Replays {@code vector} against {@code reference} with its declarations; an expectation not met throws. */
    static void replay(final EmbeddedReferenceDut reference, final TestVector vector) throws Exception {
        VectorReplay.run(
                vector,
                reference.device().control(),
                reference.device().link(),
                VectorReplay.Declared.of(reference.device().profile().parameters()));
    }
}
