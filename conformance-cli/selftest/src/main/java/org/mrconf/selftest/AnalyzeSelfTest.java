package org.mrconf.selftest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.mrconf.analyze.CaptureAnalysis;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.Clause;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.defect.Defect;
import org.mrconf.defect.Defects;
import org.mrconf.dut.DeclarationLoader;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.embedded.DefectCapture;
import org.mrconf.pcap.UdpFrame;
import org.mrconf.verdict.Verdict;

/**
 * Self-validation of {@code metaroce analyze}: for the clean reference and for every defect that breaks a clause the
 * analyser judges, captures two reference endpoints on the simulated fabric, one committing the defect
 * ({@link DefectCapture}), analyses the capture with the reference's declarations for both ends, and checks that the
 * right clauses FAIL for the defective end and nothing FAILs for the conformant one.
 *
 * <p>Some of those defects cannot show in a capture of two references, whatever the traffic: {@link #NOT_VISIBLE}
 * says why for each. They still run, and a listed defect that the analyser does catch makes self-validation fail, so
 * the list cannot go stale.
 */
public final class AnalyzeSelfTest {
    /** The seed of every capture: the same seed, defect and code give the same capture. */
    static final long SEED = 11;

    /**
     * How long after an ACK reported a PSN received the sender may still resend it (analyze's
     * {@code --resend-margin-ms}): the capture shows each ACK as it reaches the sender ({@link DefectCapture}), so only
     * the sender's reaction time, well under this in the simulation.
     */
    static final Duration RESEND_MARGIN = Duration.ofNanos(20_000);

    /**
     * Defects that break a clause the analyser judges but that a capture between the defective reference and a
     * conformant peer cannot show, with why. Most are receivers mishandling a malformed packet, which a conformant
     * peer never sends; the others hide behind state a capture does not carry.
     */
    public static final Map<Defect, String> NOT_VISIBLE = Map.ofEntries(
            Map.entry(
                    Defect.DROP_CE_MARKED,
                    "a receiver's handling of CE-marked packets: the fabric marks none here, and the analyser judges"
                            + " only the sender's half of 4.1.7 (ECN-capable data and PROBEs)"),
            Map.entry(
                    Defect.REJECT_NONZERO_RESERVED,
                    "a receiver rejecting non-zero reserved fields: a conformant peer sends none"),
            Map.entry(
                    Defect.LENGTH_FROM_DATAGRAM,
                    "a receiver trusting the datagram length over the payload length field: a conformant peer's two"
                            + " always agree"),
            Map.entry(
                    Defect.SEGMENT_BOUNDS_UNCHECKED,
                    "a receiver accepting a segment past its message: a conformant peer sends none"),
            Map.entry(
                    Defect.READ_REQUEST_FIELDS_UNCHECKED,
                    "a receiver answering a malformed READ_REQUEST: a conformant peer sends none"),
            Map.entry(
                    Defect.READ_REQUEST_SEGMENT_CHECKED,
                    "a receiver counting a malformed READ_REQUEST under the wrong counter: a conformant peer sends"
                            + " none, and counters are not on the wire"),
            Map.entry(Defect.ACCEPT_SACK_BIT0, "a receiver accepting SACK bit 0: a conformant peer never sets it"),
            Map.entry(
                    Defect.STRICT_MINOR_VERSION,
                    "a receiver dropping minor version 1.x: a conformant 1.0 peer sends none"),
            Map.entry(
                    Defect.ACCEPT_ANY_MAJOR_VERSION,
                    "a receiver accepting another major version: a conformant peer sends none"),
            Map.entry(
                    Defect.INITIAL_PSN_IGNORED,
                    "the initial PSN is agreed at connection setup, outside the capture: a path that starts at 0 looks"
                            + " the same as one agreed to start at 0"),
            Map.entry(
                    Defect.PROBE_ECHOES_DATA_TIMESTAMP,
                    "an ACK answering a PROBE looks like any ACK of the path, and echoing a data packet's timestamp"
                            + " is what an ACK of data does; the reference sends PROBEs only on unhealthy paths"),
            Map.entry(
                    Defect.BACKOFF_NOT_RESTORED,
                    "the computed RTO is the sender's own estimate: a timeout that comes late after an ACK looks the"
                            + " same as a longer computed RTO"),
            Map.entry(
                    Defect.LATE_ACK_ENDS_BACKOFF,
                    "it needs a late ACK during a backoff, which a capture shows only where the network held an ACK"
                            + " back; and a shorter interval after it looks the same as the lower computed RTO its RTT"
                            + " sample may bring"),
            Map.entry(
                    Defect.LATE_ACK_RESETS_EXPIRY_COUNT,
                    "the count of expiries shows only in path health, which is not on the wire, and only after a"
                            + " late ACK, which needs the network to hold an ACK back"),
            Map.entry(
                    Defect.TIMESTAMP_ECHO_SKIPS_RETRANSMISSIONS,
                    "the echo is the previous packet's timestamp, which a packet of the path did carry; which packet"
                            + " arrived last at the receiver is not in a capture taken beside the sender (the fabric"
                            + " reorders)"),
            Map.entry(
                    Defect.TIMESTAMP_ECHO_STUCK,
                    "the stuck echo is a timestamp the path's first packet really carried; the analyser remembers a"
                            + " path's last 1,024 transmissions and does not judge an echo older than those, since"
                            + " without a bound on how long a packet may be in flight a capture cannot tell a stuck"
                            + " echo from a late arrival"),
            Map.entry(
                    Defect.RECEIVER_NOT_READY_PSN_RECORDED,
                    "its declared 8.1.1 is about a PSN reported received that the peer did send: the analyser's 8.1.1"
                            + " judges only that reported PSNs were sent; 9.1.4 and 7.3.2 are not wire-judged"),
            Map.entry(
                    Defect.ACK_ENTROPY_FROM_FIRST_PACKET,
                    "it answers from the port of a path's first packet, which differs from the most recent one only"
                            + " after the sender changed the path's port; the capture's conformant sender keeps every"
                            + " path's port for the whole exchange (SACK repairs its losses, no timer expires), so its"
                            + " ACKs come from the right port"),
            Map.entry(
                    Defect.REORDER_BUFFER,
                    "it acknowledges a packet it holds back and places it once the gap is filled: when a payload"
                            + " reaches memory is not on the wire (the vector of 8.1.1 reads the memory after each ACK);"
                            + " 7.1.1 and 7.1.2 are not wire-judged"));

    private final int jobs;

    public AnalyzeSelfTest(final int jobs) {
        if (jobs < 1) {
            throw new IllegalArgumentException("jobs must be at least 1, was " + jobs);
        }
        this.jobs = jobs;
    }

    /** The defects whose declared clauses include one the analyser judges, in catalogue order. */
    public static List<Defect> inScope(final List<Defect> defects) {
        final Set<String> judged = Set.copyOf(CaptureAnalysis.judgedClauses());
        return defects.stream()
                .filter(d -> d.clauses().stream().anyMatch(judged::contains))
                .toList();
    }

    /** Runs the clean capture and each of {@code defects} that is in scope; the rest are left out. */
    public AnalyzeSelfTestReport run(final List<Defect> defects) throws Exception {
        final long started = System.nanoTime();
        final ClauseCatalogue catalogue = new CatalogueLoader().loadBundled();
        final DeviceDeclaration reference =
                new DeclarationLoader(catalogue).loadBundled(DeclarationLoader.REFERENCE_UDP);
        final Path work = Files.createTempDirectory("metaroce-selftest-analyze");
        final ExecutorService pool = Executors.newFixedThreadPool(jobs, runnable -> {
            final Thread thread = new Thread(runnable, "mrconf-selftest-analyze");
            thread.setDaemon(true);
            return thread;
        });
        try {
            final Future<AnalyzeOutcome> clean = pool.submit(() -> runOne(null, work, catalogue, reference));
            final List<Future<AnalyzeOutcome>> futures = new ArrayList<>();
            for (final Defect defect : inScope(defects)) {
                futures.add(pool.submit(() -> runOne(defect, work, catalogue, reference)));
            }
            final List<AnalyzeOutcome> outcomes = new ArrayList<>();
            for (final Future<AnalyzeOutcome> future : futures) {
                outcomes.add(future.get());
            }
            return new AnalyzeSelfTestReport(clean.get(), outcomes, System.nanoTime() - started);
        } catch (final ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } finally {
            // Every task has stopped writing its capture before the folder goes, and a folder that cannot be removed
            // (a temporary one) never hides the run's own failure: it is only reported.
            pool.shutdownNow();
            pool.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS);
            try {
                deleteTree(work);
            } catch (final UncheckedIOException e) {
                System.err.println("metaroce: warning: " + e.getMessage() + ": " + e.getCause());
            }
        }
    }

    private static AnalyzeOutcome runOne(
            final Defect defect, final Path work, final ClauseCatalogue catalogue, final DeviceDeclaration reference)
            throws Exception {
        final long started = System.nanoTime();
        final Path capture = work.resolve((defect == null ? "clean" : defect.flagName()) + ".pcap");
        DefectCapture.write(capture, SEED, defect == null ? Defects.NONE : Defects.of(defect));
        final CaptureAnalysis analysis = CaptureAnalysis.of(
                capture, UdpFrame.METAROCE_PORT, RESEND_MARGIN, catalogue, Map.of(), Optional.of(reference));
        Files.deleteIfExists(capture);
        final SortedSet<String> judged = new TreeSet<>(Clause::compareIds);
        if (defect != null) {
            judged.addAll(defect.clauses());
            judged.retainAll(CaptureAnalysis.judgedClauses());
        }
        return new AnalyzeOutcome(
                defect,
                judged,
                analysis.clauses(DefectCapture.DEFECTIVE, Verdict.FAIL),
                analysis.clauses(DefectCapture.CLEAN, Verdict.FAIL),
                defect == null ? null : NOT_VISIBLE.get(defect),
                analysis.frames(),
                System.nanoTime() - started);
    }

    private static void deleteTree(final Path root) {
        try (var paths = Files.walk(root)) {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot remove " + root, e);
        }
    }
}
