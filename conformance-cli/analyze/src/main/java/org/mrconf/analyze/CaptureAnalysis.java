package org.mrconf.analyze;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.pcap.CaptureFileException;
import org.mrconf.pcap.CapturedFrame;
import org.mrconf.pcap.DecodedFrame;
import org.mrconf.pcap.FrameDecodeException;
import org.mrconf.pcap.PcapReader;
import org.mrconf.verdict.CaseResult;

/**
 * One passive analysis of a capture file: streams its frames through a {@link CaptureAnalyzer} (never holding the
 * capture in memory) and gives the case verdicts per end and clause.
 *
 * @param frames         frames read
 * @param metaroceFrames frames to the MetaRoCE port
 * @param paths          paths rebuilt
 * @param notes          what was not judged, counted by reason
 * @param cases          one verdict per end and check
 */
public record CaptureAnalysis(
        long frames, long metaroceFrames, int paths, Map<String, Long> notes, List<CaseResult> cases) {
    private static final String TRUNCATED = "frames cut short by the capture's snap length";
    private static final String NOT_UDP = "frames that are not Ethernet/IP/UDP";

    /** What receives the frames of a capture, numbered from 1. */
    @FunctionalInterface
    private interface FrameSink {
        void onFrame(long number, DecodedFrame frame);
    }

    /** Streams the frames of {@code capture} to {@code sink}; frames cut short or not UDP go to {@code undecodable}. */
    private static void readFrames(
            final Path capture, final FrameSink sink, final java.util.function.Consumer<String> undecodable)
            throws CaptureFileException {
        try (PcapReader reader = PcapReader.open(capture)) {
            long number = 0;
            for (CapturedFrame frame = reader.next(); frame != null; frame = reader.next()) {
                number++;
                if (frame.isTruncated()) {
                    undecodable.accept(TRUNCATED);
                    continue;
                }
                try {
                    sink.onFrame(number, frame.decode());
                } catch (final FrameDecodeException e) {
                    undecodable.accept(NOT_UDP);
                }
            }
        }
    }

    public CaptureAnalysis {
        notes = Map.copyOf(notes);
        cases = List.copyOf(cases);
    }

    /** The clauses the analyser judges for each end of a capture, in catalogue order. */
    public static List<String> judgedClauses() {
        return java.util.Arrays.stream(Check.values())
                .map(Check::clause)
                .sorted(org.mrconf.catalogue.Clause::compareIds)
                .toList();
    }

    /**
     * The clauses whose verdict is {@code verdict} for {@code end}: an end as the capture shows it
     * ({@code address:port}, {@code [address]:port} for IPv6), or an address alone for every end at it.
     */
    public java.util.SortedSet<String> clauses(final String end, final org.mrconf.verdict.Verdict verdict) {
        final java.util.SortedSet<String> found = new java.util.TreeSet<>(org.mrconf.catalogue.Clause::compareIds);
        final String prefix;
        if (end.indexOf(':') < 0 || end.startsWith("[") && end.endsWith("]")) {
            prefix = "analyze[" + end + ":"; // an IPv4 address, or an IPv6 one in brackets
        } else if (!end.startsWith("[") && end.indexOf(':') != end.lastIndexOf(':')) {
            prefix = "analyze[[" + end + "]:"; // an IPv6 address
        } else {
            prefix = AnalysisVerdicts.caseIdPrefix(end);
        }
        for (final CaseResult result : cases) {
            if (result.caseId().startsWith(prefix) && result.verdict() == verdict) {
                found.addAll(result.clauses());
            }
        }
        return found;
    }

    /**
     * Analyses {@code capture}.
     *
     * @param port         the MetaRoCE destination UDP port
     * @param resendMargin see {@link CaptureAnalyzer#CaptureAnalyzer(int, Duration)}
     * @param declarations what each end declares, by end ({@code address:port}) or by address for every end at it
     * @param everyEnd     what every other end declares, if given
     * @throws CaptureFileException when the file is not a readable Ethernet pcap or pcapng capture
     */
    public static CaptureAnalysis of(
            final Path capture,
            final int port,
            final Duration resendMargin,
            final ClauseCatalogue catalogue,
            final Map<String, DeviceDeclaration> declarations,
            final Optional<DeviceDeclaration> everyEnd)
            throws CaptureFileException {
        final Instant startedAt = Instant.now();
        final CaptureAnalyzer analyzer = new CaptureAnalyzer(port, resendMargin);
        // Two passes, each streaming: the first finds the ends (address and port), the second judges their packets.
        readFrames(capture, (number, frame) -> analyzer.learn(frame), reason -> {});
        analyzer.endLearning();
        readFrames(capture, analyzer::onFrame, analyzer::onUndecodableFrame);
        final List<CaseResult> cases =
                new AnalysisVerdicts(catalogue, declarations, everyEnd).cases(analyzer.findings(), startedAt);
        return new CaptureAnalysis(
                analyzer.frames(), analyzer.metaroceFrames(), analyzer.pathCount(), analyzer.notes(), cases);
    }
}
