package org.mrconf.verdict;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One conformance case's verdict, immutable.
 *
 * @param caseId     class and method, e.g. {@code DataPathCase.outOfOrderWrite}
 * @param title      the case's display name, a sentence a reviewer can read
 * @param clauses    the clause ids it verifies
 * @param kind       valid, invalid or inopportune behaviour
 * @param verdict    the verdict
 * @param message    the whole reason (expected and actual included); empty when it passed
 * @param startedAt  when it started
 * @param durationNs how long it took
 * @param evidence   expected and actual values and packets; {@link Evidence#NONE} when there are none
 */
@API(status = MAINTAINED, since = "0.1")
public record CaseResult(
        String caseId,
        String title,
        List<String> clauses,
        CaseKind kind,
        Verdict verdict,
        String message,
        Instant startedAt,
        long durationNs,
        Evidence evidence) {
    public CaseResult {
        Objects.requireNonNull(caseId, "caseId");
        Objects.requireNonNull(title, "title");
        clauses = List.copyOf(clauses);
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(evidence, "evidence");
    }
}
