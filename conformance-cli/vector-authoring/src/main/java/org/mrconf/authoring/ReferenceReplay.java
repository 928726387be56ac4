package org.mrconf.authoring;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.mrconf.catalogue.Profile;
import org.mrconf.embedded.EmbeddedReferenceDut;
import org.mrconf.embedded.ReferenceConfiguration;
import org.mrconf.replay.LinkRequirements;
import org.mrconf.replay.TestVector;
import org.mrconf.replay.VectorCorpus;
import org.mrconf.replay.VectorReplay;

/**
 * Replays every vector of a corpus against the clean embedded reference, each once, in the first configuration that
 * claims its profiles and whose link carries it (IPv6 and whole frames have configurations of their own), with the
 * reference's declarations, the standard configuration on one lane and the others on a second. For the build's check
 * that the reference meets the whole corpus and for {@code bench vectors}.
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

    /**
     * The outcome of every vector of {@code corpus}, in the corpus's order. Each vector is given to the first
     * configuration that can replay it; the standard configuration replays its vectors on one lane while the others
     * replay theirs, one configuration after another, on a second lane: they are separate reference instances, as
     * separate devices would be, and a device is only ever tested in one configuration at a time.
     */
    public static List<Outcome> run(final VectorCorpus corpus) throws Exception {
        final Map<ReferenceConfiguration, EmbeddedReferenceDut> references =
                new EnumMap<>(ReferenceConfiguration.class);
        try {
            final Map<ReferenceConfiguration, List<TestVector>> assigned = new EnumMap<>(ReferenceConfiguration.class);
            final Set<String> placed = new HashSet<>();
            for (final ReferenceConfiguration configuration : ReferenceConfiguration.values()) {
                final EmbeddedReferenceDut reference = EmbeddedReferenceDut.start(configuration);
                references.put(configuration, reference);
                for (final TestVector vector : corpus.vectors()) {
                    if (!placed.contains(vector.id())
                            && unmet(reference, vector).isEmpty()) {
                        placed.add(vector.id());
                        assigned.computeIfAbsent(configuration, c -> new ArrayList<>())
                                .add(vector);
                    }
                }
            }
            final Map<String, Outcome> byId = new ConcurrentHashMap<>();
            final ExecutorService others = Executors.newSingleThreadExecutor(r -> {
                final Thread thread = new Thread(r, "vector-replay-other-configurations");
                thread.setDaemon(true);
                return thread;
            });
            try {
                final Future<?> otherLane = others.submit(() -> {
                    for (final ReferenceConfiguration configuration : ReferenceConfiguration.values()) {
                        if (configuration != ReferenceConfiguration.STANDARD) {
                            replayAll(references.get(configuration), configuration, assigned, byId);
                        }
                    }
                    return null;
                });
                replayAll(
                        references.get(ReferenceConfiguration.STANDARD),
                        ReferenceConfiguration.STANDARD,
                        assigned,
                        byId);
                otherLane.get();
            } catch (final ExecutionException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            } finally {
                others.shutdownNow();
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
        } finally {
            for (final EmbeddedReferenceDut reference : references.values()) {
                reference.close();
            }
        }
    }

    /** Replays the vectors assigned to {@code configuration} on {@code reference}, one after another. */
    private static void replayAll(
            final EmbeddedReferenceDut reference,
            final ReferenceConfiguration configuration,
            final Map<ReferenceConfiguration, List<TestVector>> assigned,
            final Map<String, Outcome> byId)
            throws Exception {
        for (final TestVector vector : assigned.getOrDefault(configuration, List.of())) {
            final long startNs = System.nanoTime();
            Optional<String> failure = Optional.empty();
            try {
                replay(reference, vector);
            } catch (final AssertionError e) {
                failure = Optional.of(e.getMessage());
            }
            byId.put(
                    vector.id(),
                    new Outcome(vector, Optional.of(configuration), (System.nanoTime() - startNs) / 1e9, failure));
        }
    }

    /**
     * Why {@code reference} cannot replay {@code vector}: a profile it does not claim, or what its link cannot give
     * ({@link LinkRequirements}); empty when it can.
     */
    public static Optional<String> unmet(final EmbeddedReferenceDut reference, final TestVector vector)
            throws Exception {
        final Optional<String> profiles =
                vector.sidecar().profilesUnmet(p -> reference.device().profile().claims(Profile.fromSpecName(p)));
        if (profiles.isPresent()) {
            return profiles;
        }
        return LinkRequirements.unmet(vector, reference.device().link());
    }

    /** Replays {@code vector} against {@code reference} with its declarations; an expectation not met throws. */
    public static void replay(final EmbeddedReferenceDut reference, final TestVector vector) throws Exception {
        VectorReplay.run(
                vector,
                reference.device().control(),
                reference.device().link(),
                VectorReplay.Declared.of(reference.device().profile().parameters()));
    }
}
