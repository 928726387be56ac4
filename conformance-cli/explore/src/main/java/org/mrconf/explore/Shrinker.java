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
    private int runs;

    Shrinker(final Test test) {
        this.test = test;
    }

    /** How many candidates were run. */
    int runs() {
        return runs;
    }

    /** The smallest failing program found from {@code failing} within {@code budget} runs. */
    Program shrink(final Program failing, final int budget) throws Exception {
        Program current = failing;
        boolean shrunk = true;
        while (shrunk && runs < budget) {
            shrunk = false;
            for (final Program candidate : candidates(current)) {
                if (runs >= budget) {
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
    static List<Program> candidates(final Program program) {
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
            for (final int shorter : new int[] {length / 2, length - 1}) {
                if (shorter >= 1 && shorter < length) {
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
