package org.mrconf.verdict;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Everything a conformance run produced, as the report writers read it. Writers never re-derive a verdict: they
 * print {@link #cases()} and {@link #clauses()} as they are.
 *
 * @param suiteVersion  the suite's version
 * @param suiteCommit   the git commit the suite was built from; "unknown" when not known
 * @param specVersion   the Open Draft version the cases were written against
 * @param commandLine   the exact command line of the run
 * @param dut           who the device is and what it declared
 * @param startedAt     when the run started
 * @param finishedAt    when it ended; empty while it runs
 * @param interrupted   whether it was cut short (SIGINT, a crash); its verdicts are then incomplete
 * @param selection     the selection options the run was given, e.g. {@code clause=6.*}; empty means everything
 * @param cases         the case verdicts in the order they finished
 * @param clauses       the clause verdicts in clause order
 * @param vectors       the SHA-256 of each test vector the run replayed, in id order
 */
@API(status = MAINTAINED, since = "0.1")
public record RunRecord(
        String suiteVersion,
        String suiteCommit,
        String specVersion,
        String commandLine,
        DutDescription dut,
        Instant startedAt,
        Optional<Instant> finishedAt,
        boolean interrupted,
        Map<String, String> selection,
        List<CaseResult> cases,
        List<ClauseResult> clauses,
        List<VectorDigest> vectors) {
    public RunRecord {
        Objects.requireNonNull(suiteVersion, "suiteVersion");
        Objects.requireNonNull(suiteCommit, "suiteCommit");
        Objects.requireNonNull(specVersion, "specVersion");
        Objects.requireNonNull(commandLine, "commandLine");
        Objects.requireNonNull(dut, "dut");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(finishedAt, "finishedAt");
        selection = Map.copyOf(selection);
        cases = List.copyOf(cases);
        clauses = List.copyOf(clauses);
        vectors = List.copyOf(vectors);
    }

    /** A record of a run that replayed no test vector. */
    public RunRecord(
            final String suiteVersion,
            final String suiteCommit,
            final String specVersion,
            final String commandLine,
            final DutDescription dut,
            final Instant startedAt,
            final Optional<Instant> finishedAt,
            final boolean interrupted,
            final Map<String, String> selection,
            final List<CaseResult> cases,
            final List<ClauseResult> clauses) {
        this(
                suiteVersion,
                suiteCommit,
                specVersion,
                commandLine,
                dut,
                startedAt,
                finishedAt,
                interrupted,
                selection,
                cases,
                clauses,
                List.of());
    }

    /**
     * The device as the report names it.
     *
     * @param name            the target as given ({@code reference}, {@code udp://...}, a declaration file)
     * @param vendor          from the profile or {@code hello}
     * @param model           likewise
     * @param firmware        likewise
     * @param driver          likewise
     * @param profiles        the claimed profiles
     * @param optionalClauses the SHOULD and MAY clauses it declares it implements
     * @param defects         the defects planted in it ({@code hello}); a clean device has none
     * @param parameters      the declared test parameters (MTU, paths, timers, tolerances) as name to value
     * @param link            the wire link: {@code embedded}, {@code udp} or {@code raw-ethernet}
     */
    public record DutDescription(
            String name,
            String vendor,
            String model,
            String firmware,
            String driver,
            List<String> profiles,
            List<String> optionalClauses,
            List<String> defects,
            Map<String, String> parameters,
            String link) {
        public DutDescription {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(vendor, "vendor");
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(firmware, "firmware");
            Objects.requireNonNull(driver, "driver");
            profiles = List.copyOf(profiles);
            optionalClauses = List.copyOf(optionalClauses);
            defects = List.copyOf(defects);
            parameters = Map.copyOf(parameters);
            Objects.requireNonNull(link, "link");
        }

        /** The same description with one more parameter, e.g. how the run used the device. */
        public DutDescription withParameter(final String key, final String value) {
            final Map<String, String> more = new java.util.HashMap<>(parameters);
            more.put(key, value);
            return new DutDescription(
                    name, vendor, model, firmware, driver, profiles, optionalClauses, defects, more, link);
        }
    }
}
