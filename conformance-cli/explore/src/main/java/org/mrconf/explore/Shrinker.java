package org.mrconf.explore;

import java.util.ArrayList;
import java.util.List;

/**
 * Shrinks a failing program to a smaller one that still fails the same way, by deterministic delta debugging: fewer
 * messages (halves first, then one at a time), fewer impairments, fewer paths and streams, shorter messages, the PSNs
 * away from the wrap. A candidate is kept when it still fails ({@link Test}); the first that does is taken and the
 * search starts over, until no candidate fails or the budget of runs is spent.
 */
final class Shrinker {
    /** Whether a candidate program still fails as the original did. */
    @FunctionalInterface
    interface Test {
        boolean fails(Program candidate) throws Exception;
    }

    private final Test test;
    private final int segment;
    private final java.time.Clock clock;
    private int runs;

    /**
     * @param test    whether a candidate still fails
     * @param segment the payload of one full packet (a message one byte longer has two packets)
     * @param clock   the clock the shrinking's deadline is read from
     */
    Shrinker(final Test test, final int segment, final java.time.Clock clock) {
        this.test = test;
        this.segment = segment;
        this.clock = clock;
    }

    /** How many candidates were run. */
    int runs() {
        return runs;
    }

    /** The smallest failing program found from {@code failing} within {@code budget} runs and before {@code deadline}. */
    Program shrink(final Program failing, final int budget, final java.time.Instant deadline) throws Exception {
        Program current = failing;
        boolean shrunk = true;
        while (shrunk && runs < budget && clock.instant().isBefore(deadline)) {
            shrunk = false;
            for (final Program candidate : candidates(current, segment)) {
                if (runs >= budget || !clock.instant().isBefore(deadline)) {
                    break;
                }
                runs++;
                if (test.fails(candidate)) {
                    current = candidate;
                    shrunk = true;
                    break;
                }
            }
        }
        return current;
    }

    /** Smaller programs than {@code program}, the boldest first. */
    static List<Program> candidates(final Program program, final int segment) {
        final List<Program> candidates = new ArrayList<>();
        final List<Program.Message> messages = program.messages();
        // Fewer messages: drop blocks, halves first, down to one message at a time.
        for (int block = Math.max(1, messages.size() / 2); block >= 1; block /= 2) {
            for (int from = 0; from + block <= messages.size(); from += block) {
                if (messages.size() - block < 1) {
                    continue;
                }
                final List<Program.Message> fewer = new ArrayList<>(messages.subList(0, from));
                fewer.addAll(messages.subList(from + block, messages.size()));
                candidates.add(program.withMessages(fewer));
            }
            if (block == 1) {
                break;
            }
        }
        // Fewer impairments: all at once, then one at a time.
        if (!program.impairments().isEmpty()) {
            candidates.add(program.withImpairments(List.of()));
            for (int i = 0;
                    i < program.impairments().size() && program.impairments().size() > 1;
                    i++) {
                final List<Program.Impairment> fewer = new ArrayList<>(program.impairments());
                fewer.remove(i);
                candidates.add(program.withImpairments(fewer));
            }
        }
        // Fewer paths and streams.
        if (program.paths() > 1) {
            candidates.add(program.withPaths(1));
            if (program.paths() > 2) {
                candidates.add(program.withPaths(program.paths() - 1));
            }
        }
        if (program.streams() > 1) {
            candidates.add(program.withStreams(1));
            if (program.streams() > 2) {
                candidates.add(program.withStreams(program.streams() - 1));
            }
        }
        // Shorter messages.
        for (int i = 0; i < messages.size(); i++) {
            final int length = messages.get(i).length();
            final java.util.Set<Integer> tried = new java.util.HashSet<>();
            // One byte, then just over one packet (the least that still has two), then halves, then one byte less.
            for (final int shorter : new int[] {1, segment + 1, length / 2, length - 1}) {
                if (shorter >= 1 && shorter < length && tried.add(shorter)) {
                    final List<Program.Message> changed = new ArrayList<>(messages);
                    changed.set(i, messages.get(i).withLength(shorter));
                    candidates.add(program.withMessages(changed));
                }
            }
        }
        // Smaller impairment distances.
        for (int i = 0; i < program.impairments().size(); i++) {
            final Program.Impairment impairment = program.impairments().get(i);
            if (impairment.distance() > 1) {
                final List<Program.Impairment> changed = new ArrayList<>(program.impairments());
                changed.set(i, new Program.Impairment(impairment.kind(), impairment.segment(), 1));
                candidates.add(program.withImpairments(changed));
            }
        }
        if (program.initialPsn() != 0) {
            candidates.add(program.withInitialPsn(0));
        }
        return candidates;
    }
}
