package org.mrconf.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apiguardian.api.API;
import org.mrconf.catalogue.Clause;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.DutInfo;
import org.mrconf.replay.TestVector;
import org.mrconf.replay.VectorFiles;
import org.mrconf.replay.VectorScope;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.ClauseVerdicts;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.VectorDigest;

/**
 * The run as it goes: what is fixed at the start (suite, spec, device, selection) and the case results so far. Any
 * thread may take a {@link #snapshot} at any time (the report writers after every case, the SIGINT hook), so an
 * interrupted run still leaves a whole record.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class RunJournal {
    /** The id prefix of a vector's result. */
    static final String VECTOR_PREFIX = "vector:";

    private final BuildInfo build;
    private final ClauseCatalogue catalogue;
    private final String commandLine;
    private final RunRecord.DutDescription dut;
    private final Map<String, String> selection;
    private final Instant startedAt = Instant.now();
    private final List<CaseResult> cases = new ArrayList<>();
    private final Map<String, VectorDigest> vectors = new TreeMap<>();
    private Path vectorRoot = VectorScope.defaultRoot();
    private boolean interruptedRun;

    public RunJournal(
            final BuildInfo build,
            final ClauseCatalogue catalogue,
            final String commandLine,
            final RunRecord.DutDescription dut,
            final Map<String, String> selection) {
        this.build = build;
        this.catalogue = catalogue;
        this.commandLine = commandLine;
        this.dut = dut;
        this.selection = Map.copyOf(selection);
    }

    public synchronized void add(final CaseResult result) {
        cases.add(result);
        if (result.caseId().startsWith(VECTOR_PREFIX)) {
            digest(result.caseId().substring(VECTOR_PREFIX.length())).ifPresent(d -> vectors.put(d.id(), d));
        }
    }

    /** Where the run's test vectors are, when not the default ({@link VectorScope#defaultRoot()}). */
    public synchronized void vectorRoot(final Path root) {
        vectorRoot = root;
    }

    /**
     * The SHA-256 of a vector's files as they are right after it ran; empty when its folder holds no vector (a
     * vector that could not be read has the sidecar's path as its id, and its result already says what is wrong).
     */
    private Optional<VectorDigest> digest(final String id) {
        final Path folder = vectorRoot.resolve(id);
        if (!Files.isRegularFile(folder.resolve(TestVector.SIDECAR))) {
            return Optional.empty();
        }
        try {
            final SortedMap<String, String> files = VectorFiles.hashesOf(vectorRoot, folder);
            return Optional.of(new VectorDigest(id, VectorFiles.digest(files), files));
        } catch (final IOException e) {
            return Optional.empty();
        }
    }

    public synchronized List<CaseResult> cases() {
        return List.copyOf(cases);
    }

    /** Marks the run cut short (SIGINT): every snapshot from now on says so, whoever takes it. */
    public synchronized void markInterrupted() {
        interruptedRun = true;
    }

    /** The record now; {@code finished} stamps the end time, {@code interrupted} marks it cut short. */
    public synchronized RunRecord snapshot(final boolean finished, final boolean interruptedNow) {
        final boolean interrupted = interruptedNow || interruptedRun;
        return new RunRecord(
                build.version(),
                build.commit(),
                catalogue.specVersion(),
                commandLine,
                dut,
                startedAt,
                finished || interrupted ? Optional.of(Instant.now()) : Optional.empty(),
                interrupted,
                selection,
                cases,
                clauses(),
                List.copyOf(vectors.values()));
    }

    /** The clause verdicts of the cases so far, in spec order. */
    public synchronized List<ClauseResult> clauses() {
        return ClauseVerdicts.combine(
                cases,
                new ClauseVerdicts.ClauseInfo() {
                    @Override
                    public String title(final String id) {
                        return catalogue.find(id).map(Clause::title).orElse("(not in the catalogue)");
                    }

                    @Override
                    public String level(final String id) {
                        return catalogue.find(id).map(c -> c.level().name()).orElse("MUST");
                    }

                    @Override
                    public String profile(final String id) {
                        return catalogue
                                .find(id)
                                .map(c -> c.profile().specName())
                                .orElse("core");
                    }
                },
                catalogue.clauses().stream().map(Clause::id).toList());
    }

    /**
     * The device as the reports name it: its declarations (the profile is what the vendor declared) and, when
     * {@code hello} claims other profiles, both sets and the disagreement under {@code parameters}.
     */
    public static RunRecord.DutDescription describe(
            final String name, final DeviceDeclaration profile, final Optional<DutInfo> hello) {
        final Map<String, String> parameters = new LinkedHashMap<>();
        final DeviceDeclaration.Parameters p = profile.parameters();
        parameters.put(
                "dut", p.dut().getAddress().getHostAddress() + ":" + p.dut().getPort());
        parameters.put(
                "tester",
                p.tester().getAddress().getHostAddress() + ":" + p.tester().getPort());
        parameters.put("mtu", String.valueOf(p.mtu()));
        parameters.put("paths", String.valueOf(p.paths()));
        parameters.put("initialSendPsn", String.valueOf(p.initialSendPsn()));
        parameters.put("initialReceivePsn", String.valueOf(p.initialReceivePsn()));
        final DeviceDeclaration.Timers t = p.timers();
        parameters.put("minRtoUs", String.valueOf(t.minRto().toNanos() / 1000));
        parameters.put("initialRtoUs", String.valueOf(t.initialRto().toNanos() / 1000));
        parameters.put("maxRtoUs", String.valueOf(t.maxRto().toNanos() / 1000));
        parameters.put("ackDelayUs", String.valueOf(t.ackDelay().toNanos() / 1000));
        parameters.put("ackCoalescing", String.valueOf(t.ackCoalescing()));
        parameters.put("unhealthyThreshold", String.valueOf(t.unhealthyThreshold()));
        parameters.put(
                "connectionTimeoutUs", String.valueOf(t.connectionTimeout().toNanos() / 1000));
        parameters.put("toleranceUs", String.valueOf(t.tolerance().toNanos() / 1000));
        t.receiverNotReadyRetry()
                .ifPresent(r -> parameters.put("receiverNotReadyRetryUs", String.valueOf(r.toNanos() / 1000)));
        parameters.put("decreaseFactor", String.valueOf(p.decreaseFactor()));
        hello.ifPresent(info -> {
            parameters.put("hello.profiles", String.join(",", names(info.profiles())));
            profile.claimsDisagreement(info).ifPresent(d -> parameters.put("claimsDisagreement", d));
        });
        return new RunRecord.DutDescription(
                name,
                profile.identity().vendor(),
                profile.identity().model(),
                profile.identity().firmware(),
                profile.identity().driver(),
                List.copyOf(names(profile.conformance().profiles())),
                profile.conformance().optionalClauses(),
                // What hello says the device commits deliberately: a defect DUT never passes as clean.
                hello.map(DutInfo::defects).orElse(List.of()),
                parameters,
                profile.link().kind() == DeviceDeclaration.LinkKind.RAW
                        ? "raw-ethernet"
                        : profile.link().kind().jsonName());
    }

    private static Set<String> names(final Set<Profile> profiles) {
        final Set<String> names = new TreeSet<>();
        profiles.forEach(p -> names.add(p.specName()));
        return names;
    }
}
