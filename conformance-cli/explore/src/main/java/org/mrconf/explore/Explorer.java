package org.mrconf.explore;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.catalogue.Clause;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DutControlException;
import org.mrconf.report.ReportWriters;
import org.mrconf.verdict.CaseKind;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.ClauseVerdicts;
import org.mrconf.verdict.Evidence;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;

/**
 * Explores a device: draws seeded random legal programs ({@link ProgramGenerator}), runs each ({@link Trial}), and on a
 * violation shrinks the program ({@link Shrinker}), runs the smallest one {@link #REPRODUCTIONS} more times, and keeps
 * it as a FAIL only if every one of them violates the same clause; otherwise the finding is INCONCLUSIVE with its
 * seed. A confirmed finding is written as a test-vector folder under {@code OUT/vectors} and as program JSON under
 * {@code OUT/findings}. Time comes from the {@link Clock} given, randomness from the seed given.
 */
public final class Explorer {
    /** Runs of the shrunk program that must all fail for a FAIL. */
    static final int REPRODUCTIONS = 3;

    /** Candidate runs the shrinker may spend on one finding. */
    static final int SHRINK_BUDGET = 120;

    /** How long the shrinker may spend on one finding. */
    static final Duration SHRINK_TIME = Duration.ofSeconds(90);

    /** What explore tells its user as it goes. */
    public interface Listener {
        void program(int number, Program program, Trial.Outcome outcome);

        void finding(Finding finding);

        /** No output. */
        static Listener silent() {
            return new Listener() {
                @Override
                public void program(final int number, final Program program, final Trial.Outcome outcome) {}

                @Override
                public void finding(final Finding finding) {}
            };
        }
    }

    /**
     * One finding.
     *
     * @param verdict     FAIL (reproduced after shrinking) or INCONCLUSIVE
     * @param clauses     the clauses it breaks
     * @param seed        the seed of the program that first showed it
     * @param original    that program
     * @param shrunk      the smallest program that still showed it
     * @param what        what the device did, from the shrunk program's runs
     * @param reproduced  how many of the {@link #REPRODUCTIONS} runs of the shrunk program showed it
     * @param replayFails whether the vector's own expectations fail on replay (else only explore's judges see it)
     * @param vector      the vector folder written, if any
     * @param shrinkRuns  candidate runs the shrinking took
     * @param foundAfter  time from the start of the exploration to the first sight of it
     * @param shrinkTook       how long the shrinking took
     * @param reproductionTook how long the reproduction runs took
     */
    public record Finding(
            Verdict verdict,
            List<String> clauses,
            long seed,
            Program original,
            Program shrunk,
            String what,
            int reproduced,
            boolean replayFails,
            Optional<Path> vector,
            int shrinkRuns,
            Duration foundAfter,
            Duration shrinkTook,
            Duration reproductionTook) {}

    /**
     * What an exploration did.
     *
     * @param seed         the exploration's seed
     * @param programs     programs run (shrinking and reproduction runs not counted)
     * @param inconclusive programs whose run could not be judged, by seed
     * @param findings     findings
     * @param judged       the clauses explore judged
     * @param startedAt    when it started
     * @param elapsed      how long it ran
     */
    public record Result(
            long seed,
            int programs,
            Map<Long, String> inconclusive,
            List<Finding> findings,
            List<String> judged,
            Instant startedAt,
            Duration elapsed) {
        /** Whether a FAIL was confirmed. */
        public boolean failed() {
            return findings.stream().anyMatch(f -> f.verdict() == Verdict.FAIL);
        }
    }

    private final DeviceUnderTest device;
    private final ClauseCatalogue catalogue;
    private final Clock clock;
    private final Path out;
    private final Trial trial;
    private final ProgramGenerator generator;
    private final Listener listener;
    private boolean stopAtFirst;
    private int shrinkBudget = SHRINK_BUDGET;
    private Duration shrinkTime = SHRINK_TIME;

    /**
     * @param device    the device
     * @param catalogue the clause catalogue
     * @param clock     the clock every deadline is read from
     * @param out       where vectors and findings are written (and a scratch folder for trials)
     * @param listener  progress
     */
    public Explorer(
            final DeviceUnderTest device,
            final ClauseCatalogue catalogue,
            final Clock clock,
            final Path out,
            final Listener listener)
            throws IOException {
        this.device = device;
        this.catalogue = catalogue;
        this.clock = clock;
        this.out = out;
        this.listener = listener;
        final Path scratch = out.resolve("scratch");
        Files.createDirectories(scratch);
        this.trial = new Trial(device, catalogue, scratch);
        this.generator = new ProgramGenerator(device.profile(), trial.segment());
    }

    /** Stops at the first confirmed FAIL (the benchmark measures the time to it). */
    public Explorer stopAtFirst(final boolean stop) {
        this.stopAtFirst = stop;
        return this;
    }

    /** Candidate runs the shrinker may spend on one finding (tests keep it small). */
    public Explorer shrinkBudget(final int runs, final Duration time) {
        this.shrinkBudget = runs;
        this.shrinkTime = time;
        return this;
    }

    /** The clauses explore judges on this device: the state judge's and those of the analyze checks. */
    public List<String> judgedClauses() {
        final TreeSet<String> clauses = new TreeSet<>(Clause::compareIds);
        clauses.addAll(List.of("7.1.1", "7.2.1", "7.3.1", "7.5.1", "7.5.2", "7.5.5"));
        // The receiver's half of what the tester's refused messages, damaged copies and reserved fields exercise.
        clauses.addAll(List.of(
                "5.1.1", "5.6.2", "5.6.3", "5.6.6", "7.3.3", "7.5.6", "7.5.9", "8.1.4", "9.1.1", "9.1.3", "9.1.7",
                "11.1.1", "11.1.2", "11.1.3"));
        if (device.profile().claims(Profile.IMMEDIATE)) {
            clauses.add("7.2.2");
        }
        if (device.profile().claims(Profile.READ)) {
            // The responder's answer (its bytes, its fields, once) and the requester's placement and completion.
            clauses.addAll(List.of("5.2.5", "5.2.6", "7.4.1", "7.4.2", "7.4.3", "7.5.4"));
        }
        if (generator.losesWhatTheDeviceSends()) {
            clauses.add("6.3.1"); // every hole of one ACK resent (6.4.1 and 6.4.2 are the packet judge's too)
        }
        clauses.addAll(org.mrconf.analyze.CaptureAnalysis.judgedClauses());
        return List.copyOf(clauses);
    }

    /** The program of {@code programSeed}, as explore draws it for this device. */
    public Program draw(final long programSeed) {
        return generator.draw(programSeed);
    }

    /** Explores for {@code budget} from {@code seed}. */
    public Result explore(final long seed, final Duration budget)
            throws IOException, InterruptedException, DutControlException {
        final Instant startedAt = clock.instant();
        final Instant deadline = startedAt.plus(budget);
        final SplittableRandom seeds = new SplittableRandom(seed);
        final Map<Long, String> inconclusive = new LinkedHashMap<>();
        final List<Finding> findings = new ArrayList<>();
        final java.util.Set<String> confirmed = new java.util.HashSet<>();
        int programs = 0;
        while (clock.instant().isBefore(deadline)) {
            final long programSeed = seeds.nextLong();
            final Program program = generator.draw(programSeed);
            final Trial.Outcome outcome = trial.run(program);
            programs++;
            listener.program(programs, program, outcome);
            if (!outcome.violated()) {
                outcome.inconclusive().ifPresent(reason -> inconclusive.put(programSeed, reason));
                continue;
            }
            if (confirmed.containsAll(outcome.clauses())) {
                continue; // a clause already shown: no second shrink of the same bug
            }
            final Finding finding = confirm(program, outcome, Duration.between(startedAt, clock.instant()));
            findings.add(finding);
            listener.finding(finding);
            if (finding.verdict() == Verdict.FAIL) {
                confirmed.addAll(finding.clauses());
                if (stopAtFirst) {
                    break;
                }
            }
        }
        return new Result(
                seed,
                programs,
                inconclusive,
                findings,
                judgedClauses(),
                startedAt,
                Duration.between(startedAt, clock.instant()));
    }

    /** Shrinks a violating program, reproduces the smallest one and writes it out. */
    Finding confirm(final Program program, final Trial.Outcome outcome, final Duration foundAfter)
            throws IOException, InterruptedException, DutControlException {
        final List<String> clauses = outcome.clauses();
        final Shrinker shrinker = new Shrinker(
                candidate -> {
                    if (!legal(candidate)) {
                        return false;
                    }
                    final Trial.Outcome shown = trial.run(candidate);
                    return shown.clauses().stream().anyMatch(clauses::contains);
                },
                trial.segment(),
                clock);
        final Instant shrinkStart = clock.instant();
        Program shrunk;
        try {
            shrunk = shrinker.shrink(program, shrinkBudget, clock.instant().plus(shrinkTime));
        } catch (final IOException | InterruptedException | DutControlException | RuntimeException e) {
            throw e;
        } catch (final Exception e) {
            throw new IllegalStateException(e);
        }
        final Instant reproductionStart = clock.instant();
        int reproduced = 0;
        boolean replayFails = true;
        final TreeSet<String> broken = new TreeSet<>(Clause::compareIds);
        String what =
                describe(outcome.findings(), clauses, outcome.findings().get(0).what());
        for (int i = 0; i < REPRODUCTIONS; i++) {
            final Trial.Outcome again = trial.run(shrunk);
            final List<String> same =
                    again.clauses().stream().filter(clauses::contains).toList();
            if (!same.isEmpty()) {
                reproduced++;
                broken.addAll(same);
                what = describe(again.findings(), clauses, what);
                replayFails &= again.findings().stream().anyMatch(f -> f.judge().equals("replay"));
            } else {
                replayFails = false;
            }
        }
        final Verdict verdict = reproduced == REPRODUCTIONS ? Verdict.FAIL : Verdict.INCONCLUSIVE;
        final List<String> named = broken.isEmpty() ? clauses : List.copyOf(broken);
        Optional<Path> vector = Optional.empty();
        if (verdict == Verdict.FAIL) {
            vector = Optional.of(write(shrunk, named, what));
        }
        writeProgram(program, shrunk, named, verdict, what, reproduced);
        return new Finding(
                verdict,
                named,
                program.seed(),
                program,
                shrunk,
                what,
                reproduced,
                verdict == Verdict.FAIL && replayFails,
                vector,
                shrinker.runs(),
                foundAfter,
                Duration.between(shrinkStart, reproductionStart),
                Duration.between(reproductionStart, clock.instant()));
    }

    /** What the first finding of {@code clauses} says, the state judge's and analyze's before replay's own lines. */
    private static String describe(final List<Trial.Finding> findings, final List<String> clauses, final String or) {
        for (final String judge : List.of("state", "analyze", "replay")) {
            for (final Trial.Finding finding : findings) {
                if (finding.judge().equals(judge) && clauses.contains(finding.clause())) {
                    return finding.what();
                }
            }
        }
        return or;
    }

    /** Whether a program stays within the device's declarations (a shrink may merge streams). */
    boolean legal(final Program program) {
        final int limit = device.profile().conformance().limits().maxOutstandingMessages();
        final int[] perStream = new int[program.streams()];
        for (final Program.Message message : program.messages()) {
            if (++perStream[message.stream()] > limit) {
                return false;
            }
        }
        return !program.messages().isEmpty();
    }

    /** The vector root findings are written under. */
    public Path vectorRoot() {
        return out.resolve("vectors");
    }

    private Path write(final Program shrunk, final List<String> clauses, final String what) throws IOException {
        final Path root = vectorRoot();
        final String name = String.format("explore-%016x", shrunk.seed());
        final Path folder = VectorFolder.write(
                root,
                clauses.get(0),
                name,
                clauses,
                "Found by metaroce explore (seed " + shrunk.seed() + ", shrunk to " + shrunk.summary()
                        + "): a device that places and completes these messages as clauses "
                        + String.join(", ", clauses)
                        + " require passes; the device explored did not: " + what,
                trial.stimulus(shrunk),
                trial.specVersion(),
                Trial.profiles(trial.stimulus(shrunk)));
        VectorFolder.writeManifest(root);
        return folder;
    }

    private void writeProgram(
            final Program original,
            final Program shrunk,
            final List<String> clauses,
            final Verdict verdict,
            final String what,
            final int reproduced)
            throws IOException {
        final Path folder = out.resolve("findings");
        Files.createDirectories(folder);
        final Map<String, Object> json = new LinkedHashMap<>();
        json.put("verdict", verdict.name());
        json.put("clauses", clauses);
        json.put("seed", original.seed());
        json.put("what", what);
        json.put("reproduced", reproduced + " of " + REPRODUCTIONS);
        json.put("original", original);
        json.put("shrunk", shrunk);
        new ObjectMapper()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(
                        folder.resolve(String.format("explore-%016x.json", original.seed()))
                                .toFile(),
                        json);
    }

    /** The case verdicts of an exploration, for the four reports. */
    public List<CaseResult> cases(final Result result) {
        final List<CaseResult> cases = new ArrayList<>();
        final TreeSet<String> shown = new TreeSet<>(Clause::compareIds);
        for (final Finding finding : result.findings()) {
            final String message = finding.verdict() + " with seed " + finding.seed() + ": " + finding.what()
                    + "; shrunk to " + finding.shrunk().summary() + "; reproduced " + finding.reproduced() + " of "
                    + REPRODUCTIONS
                    + (finding.vector().map(v -> "; vector " + v).orElse(""))
                    + (finding.verdict() == Verdict.FAIL && !finding.replayFails()
                            ? " (its replay alone does not fail: explore's packet or state judge saw it)"
                            : "");
            cases.add(new CaseResult(
                    String.format("explore[seed=%d]", finding.seed()),
                    "a random legal program, shrunk: " + finding.shrunk().summary(),
                    finding.clauses(),
                    CaseKind.VALID,
                    finding.verdict(),
                    message,
                    result.startedAt(),
                    finding.foundAfter().toNanos(),
                    new Evidence(
                            "every clause of " + finding.clauses() + " kept",
                            finding.what(),
                            List.of(),
                            Optional.empty())));
            shown.addAll(finding.clauses());
        }
        for (final Map.Entry<Long, String> entry : result.inconclusive().entrySet()) {
            cases.add(new CaseResult(
                    String.format("explore[seed=%d]", entry.getKey()),
                    "a random legal program the replay could not judge",
                    List.of("7.1.1"),
                    CaseKind.VALID,
                    Verdict.INCONCLUSIVE,
                    "INCONCLUSIVE with seed " + entry.getKey() + ": " + entry.getValue(),
                    result.startedAt(),
                    0,
                    Evidence.NONE));
        }
        final List<String> kept =
                result.judged().stream().filter(c -> !shown.contains(c)).toList();
        if (!kept.isEmpty()) {
            cases.add(new CaseResult(
                    "explore[programs]",
                    "random legal programs judged packet by packet and by end state",
                    kept,
                    CaseKind.VALID,
                    result.programs() > 0 ? Verdict.PASS : Verdict.INCONCLUSIVE,
                    result.programs() + " programs from seed " + result.seed()
                            + " showed no violation of these clauses",
                    result.startedAt(),
                    result.elapsed().toNanos(),
                    Evidence.NONE));
        }
        return cases;
    }

    /** An exploration as a run record, so that it gets the same four reports as {@code run}. */
    public RunRecord record(
            final Result result,
            final String suiteVersion,
            final String suiteCommit,
            final String commandLine,
            final RunRecord.DutDescription dut) {
        final List<CaseResult> cases = cases(result);
        final ClauseVerdicts.ClauseInfo info = ClauseVerdicts.ClauseInfo.of(catalogue);
        final List<ClauseResult> clauses = ClauseVerdicts.combine(
                cases, info, catalogue.clauses().stream().map(Clause::id).toList());
        final Map<String, String> selection = new LinkedHashMap<>();
        selection.put("mode", "explore");
        selection.put("seed", Long.toString(result.seed()));
        selection.put("programs", Integer.toString(result.programs()));
        return new RunRecord(
                suiteVersion,
                suiteCommit,
                catalogue.specVersion(),
                commandLine,
                dut,
                result.startedAt(),
                Optional.of(result.startedAt().plus(result.elapsed())),
                false,
                selection,
                cases,
                clauses);
    }

    /** Writes the four reports of {@code record} into {@code folder}. */
    public static void writeReports(final Path folder, final RunRecord record) throws IOException {
        ReportWriters.writeAll(folder, record);
    }
}
