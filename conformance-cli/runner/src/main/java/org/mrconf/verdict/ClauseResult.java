package org.mrconf.verdict;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One clause's verdict: the worst of its cases' (see {@link Verdict}), with the reason of the first case that gave
 * it, and the test purposes of the clause that this run did not exercise. A clause no case verifies in this run has
 * no ClauseResult.
 *
 * @param clauseId     the clause id, e.g. {@code "6.4.2"}
 * @param title        the clause's title from the catalogue
 * @param level        MUST, SHOULD or MAY
 * @param profile      the profile the clause belongs to
 * @param verdict      the combined verdict
 * @param reason       the reason of the first case that gave that verdict; empty for PASS
 * @param caseIds      the cases that verify it in this run
 * @param notExercised the cases (and vectors) of the clause that apply to the device's declarations but did not
 *     decide it in this run: NOT_APPLICABLE for the link or the device's configuration, INCONCLUSIVE or ERROR; never
 *     one that is NOT_APPLICABLE because the device does not claim or declare what it needs (see
 *     {@link ClauseVerdicts#byDeclarations})
 */
@API(status = MAINTAINED, since = "0.1")
public record ClauseResult(
        String clauseId,
        String title,
        String level,
        String profile,
        Verdict verdict,
        String reason,
        List<String> caseIds,
        List<NotExercised> notExercised) {
    public ClauseResult {
        Objects.requireNonNull(clauseId, "clauseId");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(reason, "reason");
        caseIds = List.copyOf(caseIds);
        notExercised = List.copyOf(notExercised);
    }

    /** A clause result whose test purposes were all exercised (or that has none that applies). */
    public ClauseResult(
            final String clauseId,
            final String title,
            final String level,
            final String profile,
            final Verdict verdict,
            final String reason,
            final List<String> caseIds) {
        this(clauseId, title, level, profile, verdict, reason, caseIds, List.of());
    }

    /**
     * Whether the clause passed (or warned) on only some of its test purposes: PASS or WARN, and a case or vector of
     * it that applies to the device was not exercised. Shown as {@code PASS (partial)}; not a failure.
     */
    public boolean partial() {
        return !notExercised.isEmpty() && (verdict == Verdict.PASS || verdict == Verdict.WARN);
    }

    /**
     * Whether the clause applies to the device but none of its test purposes was exercised: NOT_APPLICABLE only
     * because the link or the device's configuration could not carry its cases. Shown as
     * {@code NOT_APPLICABLE (not exercised)}.
     */
    public boolean unexercised() {
        return !notExercised.isEmpty() && verdict == Verdict.NOT_APPLICABLE;
    }

    /**
     * Whether the reports flag the clause as not fully exercised: {@link #partial()} or {@link #unexercised()}. (An
     * INCONCLUSIVE, ERROR or FAIL clause says so through its verdict; its {@link #notExercised()} is there for the
     * record.)
     */
    public boolean notFullyExercised() {
        return partial() || unexercised();
    }

    /** The verdict as every report shows it: {@code PASS}, {@code PASS (partial)}, {@code NOT_APPLICABLE (not exercised)}. */
    public String label() {
        if (partial()) {
            return verdict.name() + " (partial)";
        }
        return unexercised() ? verdict.name() + " (not exercised)" : verdict.name();
    }

    /**
     * The test purposes not exercised on one line: {@code case (VERDICT: first line of its reason); ...}; empty when
     * every one was.
     */
    public String notExercisedSummary() {
        return String.join(
                "; ", notExercised.stream().map(NotExercised::summary).toList());
    }

    /**
     * One test purpose of a clause that the run did not exercise.
     *
     * @param caseId  the case or vector ({@code vector:<id>})
     * @param verdict its verdict: NOT_APPLICABLE, INCONCLUSIVE or ERROR
     * @param reason  its whole reason, which says what would exercise it (e.g. a raw Ethernet link)
     */
    public record NotExercised(String caseId, Verdict verdict, String reason) {
        public NotExercised {
            Objects.requireNonNull(caseId, "caseId");
            Objects.requireNonNull(verdict, "verdict");
            Objects.requireNonNull(reason, "reason");
        }

        /** {@code case (VERDICT: first line of the reason)}. */
        public String summary() {
            final String first = reason.lines().findFirst().orElse("");
            return caseId + " (" + verdict.name() + (first.isBlank() ? "" : ": " + first) + ")";
        }
    }
}
