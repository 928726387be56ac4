package org.mrconf.replay;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.DutControl;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.DutCounters;
import org.opentest4j.TestAbortedException;

/**
 * What a vector expects of the DUT's state after its replay: the completions its work requests got (and their order),
 * how its counters grew, and what its regions hold (the sidecar's {@code expect.completions}, {@code expect.counters}
 * and {@code expect.regions}). Each broken expectation becomes one failure line naming the expected and the actual
 * value.
 */
final class OutcomeChecks {
    private OutcomeChecks() {}

    static void checkCompletions(
            final Sidecar.Expect expect,
            final DutControl control,
            final List<DutCompletion> seen,
            final List<String> failures)
            throws DutControlException {
        final long deadline = System.nanoTime() + VectorReplay.LIMIT.toNanos();
        while (System.nanoTime() < deadline && !allSeen(expect, seen)) {
            seen.addAll(control.pollCompletions(64, Duration.ofMillis(100)));
        }
        if (expect.noOtherCompletions()) {
            // The DUT was already quiet for its quiet window on the wire and the control channel alike (awaitQuiet).
            seen.addAll(control.pollCompletions(64, Duration.ZERO));
        }
        for (final Sidecar.CompletionExpectation expected : expect.completions()) {
            final DutCompletion actual = seen.stream()
                    .filter(c -> c.wrId() == expected.wrId())
                    .findFirst()
                    .orElse(null);
            if (actual == null) {
                failures.add("expected a completion of work request " + expected.wrId() + " with status "
                        + expected.status() + ", got none within " + VectorReplay.LIMIT.toSeconds() + " s");
                continue;
            }
            if (!actual.status().name().equals(expected.status())) {
                failures.add("work request " + expected.wrId() + ": expected status " + expected.status() + ", got "
                        + actual.status());
            }
            if (expected.type().isPresent()
                    && !actual.type().name().equals(expected.type().get())) {
                failures.add("work request " + expected.wrId() + ": expected type "
                        + expected.type().get() + ", got " + actual.type());
            }
            if (expected.immediate().isPresent()
                    && actual.immediate() != expected.immediate().getAsLong()) {
                failures.add(String.format(
                        "work request %d: expected immediate 0x%08x, got 0x%08x",
                        expected.wrId(), expected.immediate().getAsLong(), actual.immediate()));
            }
        }
        if (expect.completionsInOrder()) {
            final List<Long> order = new ArrayList<>();
            for (final DutCompletion completion : seen) {
                if (expect.completions().stream().anyMatch(e -> e.wrId() == completion.wrId())) {
                    order.add(completion.wrId());
                }
            }
            final List<Long> listed = expect.completions().stream()
                    .map(Sidecar.CompletionExpectation::wrId)
                    .toList();
            if (order.size() == listed.size() && !order.equals(listed)) {
                failures.add("expected the completions in the order " + listed + " (clause 7.5.2: MSN order within"
                        + " a stream), got " + order);
            }
        }
        if (expect.noOtherCompletions()) {
            final Set<Long> expectedIds = new java.util.HashSet<>();
            expect.completions().forEach(c -> expectedIds.add(c.wrId()));
            final List<DutCompletion> others =
                    seen.stream().filter(c -> !expectedIds.contains(c.wrId())).toList();
            if (!others.isEmpty()) {
                failures.add("expected no other completion, got " + others);
            }
        }
    }

    static boolean allSeen(final Sidecar.Expect expect, final List<DutCompletion> seen) {
        return allCompleted(
                expect.completions().stream()
                        .map(Sidecar.CompletionExpectation::wrId)
                        .toList(),
                seen);
    }

    /** Whether every work request of {@code wrIds} has a completion in {@code seen}. */
    static boolean allCompleted(final List<Long> wrIds, final List<DutCompletion> seen) {
        return wrIds.stream().allMatch(id -> seen.stream().anyMatch(c -> c.wrId() == id));
    }

    static void checkCounters(
            final Sidecar.Expect expect,
            final Map<String, Long> before,
            final Map<String, Long> after,
            final List<String> failures) {
        for (final Sidecar.CounterExpectation counter : expect.counters()) {
            if (!after.containsKey(counter.name())) {
                throw new TestAbortedException(
                        "the DUT does not report counter " + counter.name() + ", which vector expectations need");
            }
            final long delta = DutCounters.delta(before, after, counter.name());
            if (counter.delta().isPresent() && delta != counter.delta().getAsLong()) {
                failures.add("counter " + counter.name() + ": expected to grow by "
                        + counter.delta().getAsLong() + ", grew by " + delta);
            }
            if (counter.atLeast().isPresent() && delta < counter.atLeast().getAsLong()) {
                failures.add("counter " + counter.name() + ": expected to grow by at least "
                        + counter.atLeast().getAsLong() + ", grew by " + delta);
            }
        }
    }

    static void checkRegions(
            final Sidecar.Expect expect,
            final DutControl control,
            final Map<String, PlaceholderRewriter.ActualRegion> regions,
            final List<String> failures)
            throws DutControlException {
        for (final Sidecar.RegionContent content : expect.regions()) {
            final PlaceholderRewriter.ActualRegion region = regions.get(content.region());
            final byte[] bytes =
                    control.readRegion(region.key(), region.address() + content.offset(), content.length());
            final String actualHex = HexFormat.of().formatHex(bytes);
            if (content.hex().isPresent() && !content.hex().get().equals(actualHex)) {
                failures.add(String.format(
                        "region %s at offset %d: expected %s, got %s",
                        content.region(),
                        content.offset(),
                        abbreviate(content.hex().get()),
                        abbreviate(actualHex)));
            }
            if (content.sha256().isPresent() && !content.sha256().get().equals(VectorReplay.sha256(bytes))) {
                failures.add(String.format(
                        "region %s at offset %d, %d bytes: expected SHA-256 %s, got %s",
                        content.region(),
                        content.offset(),
                        content.length(),
                        content.sha256().get(),
                        VectorReplay.sha256(bytes)));
            }
        }
    }

    /** Whether {@code bytes} are what {@code content} says. */
    static boolean holds(final Sidecar.RegionContent content, final byte[] bytes) {
        return content.hex()
                        .map(hex -> hex.equals(HexFormat.of().formatHex(bytes)))
                        .orElse(true)
                && content.sha256()
                        .map(sha -> sha.equals(VectorReplay.sha256(bytes)))
                        .orElse(true);
    }

    static String abbreviate(final String hex) {
        return hex.length() <= 64 ? hex : hex.substring(0, 64) + "... (" + hex.length() / 2 + " bytes)";
    }
}
