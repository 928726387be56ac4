package org.mrconf.runner;

import java.util.List;

/**
 * One conformance case's verdict, immutable.
 *
 * @param caseId     class and method, e.g. {@code DataPathCase.outOfOrderWrite}
 * @param title      the case's display name
 * @param clauses    the clause ids it verifies
 * @param verdict    pass, fail, skip or aborted
 * @param message    why it failed, was skipped or aborted; empty when it passed
 * @param durationNs wall-clock time it took
 */
public record CaseResult(
        String caseId, String title, List<String> clauses, Verdict verdict, String message, long durationNs) {
    public CaseResult {
        clauses = List.copyOf(clauses);
    }
}
