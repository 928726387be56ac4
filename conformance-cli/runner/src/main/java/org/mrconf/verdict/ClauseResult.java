package org.mrconf.verdict;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One clause's verdict: the worst of its cases' (see {@link Verdict}), with the reason of the first case that gave
 * it. A clause no case verifies in this run has no ClauseResult.
 *
 * @param clauseId the clause id, e.g. {@code "6.4.2"}
 * @param title    the clause's title from the catalogue
 * @param level    MUST, SHOULD or MAY
 * @param profile  the profile the clause belongs to
 * @param verdict  the combined verdict
 * @param reason   the reason of the first case that gave that verdict; empty for PASS
 * @param caseIds  the cases that verify it in this run
 */
@API(status = MAINTAINED, since = "0.1")
public record ClauseResult(
        String clauseId,
        String title,
        String level,
        String profile,
        Verdict verdict,
        String reason,
        List<String> caseIds) {
    public ClauseResult {
        Objects.requireNonNull(clauseId, "clauseId");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(reason, "reason");
        caseIds = List.copyOf(caseIds);
    }
}
