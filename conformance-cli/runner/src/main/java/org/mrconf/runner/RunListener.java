package org.mrconf.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;
import org.mrconf.verdict.CaseResult;

/**
 * What a run tells its caller as it goes (the console, the report writers). Calls come one at a time: on the run's
 * thread, or, in a {@link LanedRun}, from either lane's thread.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface RunListener {
    /** The run will execute {@code cases} cases. */
    default void planned(final int cases) {}

    /** Case number {@code index} (from 1) of {@code total} starts. */
    default void started(final String caseId, final List<String> clauses, final int index, final int total) {}

    /** A case has its verdict; called exactly once per case, in the order they end. */
    void finished(CaseResult result);
}
