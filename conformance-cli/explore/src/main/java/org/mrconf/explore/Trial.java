package org.mrconf.explore;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.mrconf.analyze.CaptureAnalysis;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.CompletionType;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.DutControlException;
import org.mrconf.pcap.PcapWriter;
import org.mrconf.pcap.UdpFrame;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.SentPacket;
import org.mrconf.peer.TesterPeer;
import org.mrconf.replay.TestVector;
import org.mrconf.replay.VectorCorpus;
import org.mrconf.replay.VectorNotApplicable;
import org.mrconf.replay.VectorReplay;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Verdict;
import org.opentest4j.TestAbortedException;

/**
 * Runs one program against the device and judges it three ways, each sound for every conforming device:
 *
 * <ol>
 *   <li>the program's test vector is replayed by the suite's own {@link VectorReplay} (set-up through the control
 *       channel, stimulus over the wire link, its expectations: region bytes, completions);
 *   <li>every packet the device sent during it is judged by the per-clause checks of {@code analyze}
 *       ({@link CaptureAnalysis}), on a capture of both directions: only the device's FAILs count;
 *   <li>the end state is judged by the program's model ({@link Stimulus}): the region holds exactly the bytes
 *       written, each SEND and WRITE_WITH_IMMEDIATE raised exactly one receive-side completion with the right status,
 *       type, length and immediate, and each stream's completions came in MSN order.
 * </ol>
 *
 * A replay that cannot decide (the vector's own INCONCLUSIVE) is INCONCLUSIVE, never a finding.
 */
public final class Trial {
    /** One violation: the clause it breaks, what was seen, and which judge saw it. */
    public record Finding(String clause, String what, String judge) {}

    /**
     * What one run of a program showed.
     *
     * @param findings     violations, empty when the device did nothing wrong
     * @param inconclusive why the run could not be judged, if it could not
     * @param frames       stimulus frames sent
     * @param deviceSent   packets the device sent
     */
    public record Outcome(List<Finding> findings, Optional<String> inconclusive, int frames, int deviceSent) {
        public boolean violated() {
            return !findings.isEmpty();
        }

        /** The clauses broken, in order of first finding. */
        public List<String> clauses() {
            return findings.stream().map(Finding::clause).distinct().toList();
        }
    }

    /** How long after replay explore keeps polling for a completion that must not come (a second one). */
    static final Duration LATE_COMPLETIONS = Duration.ofMillis(50);

    private final DeviceUnderTest device;
    private final ClauseCatalogue catalogue;
    private final Path scratch;
    private final int mtu;
    private final boolean ipv6;
    private int serial;

    Trial(final DeviceUnderTest device, final ClauseCatalogue catalogue, final Path scratch) {
        this.device = device;
        this.catalogue = catalogue;
        this.scratch = scratch;
        this.mtu = device.profile().parameters().mtu();
        this.ipv6 = device.link().testerAddress() instanceof Inet6Address;
    }

    int segment() {
        return Stimulus.maxPayload(org.mrconf.wire.Opcode.WRITE_WITH_IMMEDIATE, mtu, ipv6);
    }

    Stimulus stimulus(final Program program) {
        return Stimulus.of(program, mtu, ipv6);
    }

    /** The profiles a device must claim for the vector of {@code stimulus} to apply: core, and read with a READ. */
    static List<String> profiles(final Stimulus stimulus) {
        return stimulus.program.messages().stream().anyMatch(m -> m.op() == Program.Op.READ)
                ? List.of("core", "read")
                : List.of("core");
    }

    String specVersion() {
        return catalogue.specVersion();
    }

    /** Runs {@code program} once. */
    Outcome run(final Program program) throws IOException, InterruptedException, DutControlException {
        final Stimulus stimulus = stimulus(program);
        final Path root = scratch.resolve("trial-" + (serial++));
        VectorFolder.write(
                root,
                "7.1.1",
                "explore",
                List.of("7.1.1"),
                "explore trial of seed " + program.seed(),
                stimulus,
                catalogue.specVersion(),
                profiles(stimulus));
        final VectorCorpus corpus = VectorCorpus.discover(root, catalogue);
        if (!corpus.problems().isEmpty() || corpus.vectors().size() != 1) {
            throw new IllegalStateException("explore wrote a vector the reader refuses: " + corpus.problems());
        }
        final TestVector vector = corpus.vectors().get(0);
        final RecordingControl control = new RecordingControl(device.control(), LATE_COMPLETIONS);
        final List<TesterPeer> peers = new ArrayList<>();
        final List<Finding> findings = new ArrayList<>();
        Optional<String> inconclusive = Optional.empty();
        try {
            VectorReplay.run(
                    vector,
                    control,
                    device.link(),
                    VectorReplay.Declared.of(device.profile().parameters()),
                    org.mrconf.peer.StallMonitor.none(),
                    peers::add);
        } catch (final VectorNotApplicable e) {
            return new Outcome(List.of(), Optional.of("not applicable: " + e.getMessage()), stimulus.frames.size(), 0);
        } catch (final TestAbortedException e) {
            inconclusive = Optional.of(e.getMessage());
        } catch (final AssertionError e) {
            findings.add(new Finding("", failureLines(e.getMessage()), "replay"));
        } catch (final org.mrconf.pcap.CaptureFileException e) {
            throw new IOException(e.getMessage(), e);
        }
        final List<Finding> state = new ArrayList<>(judgeState(stimulus, control));
        int deviceSent = 0;
        if (!peers.isEmpty()) {
            final TesterPeer peer = peers.get(peers.size() - 1);
            deviceSent = peer.recorder().all().size();
            state.addAll(judgeReadAnswers(stimulus, peer.recorder().all()));
            findings.addAll(judgePackets(peer, root.resolve("capture.pcap")));
        }
        findings.addAll(state);
        // A replay failure is the vector's own expectation: name it by the clause the state judge found, if any.
        final List<Finding> named = new ArrayList<>();
        for (final Finding finding : findings) {
            if (finding.clause().isEmpty()) {
                named.add(new Finding(
                        state.isEmpty()
                                ? replayClause(stimulus, finding.what())
                                : state.get(0).clause(),
                        finding.what(),
                        finding.judge()));
            } else {
                named.add(finding);
            }
        }
        deleteTree(root);
        return new Outcome(
                named, named.isEmpty() ? inconclusive : Optional.empty(), stimulus.frames.size(), deviceSent);
    }

    /**
     * The clause of a replay failure no other judge named: the data header when the device sent; the fault's clause
     * when a refused message's NACK or the locked region is what differed; else the placement of what the tester sent.
     */
    static String replayClause(final Stimulus stimulus, final String what) {
        final java.util.regex.Matcher named = NAMED_CLAUSE.matcher(what);
        if (named.find()) {
            return named.group(1); // a step's check names its clause, e.g. "steps[9].check: 6.4.1: ..."
        }
        if (stimulus.program.deviceSends()) {
            if (what.contains("not to have completed yet") || what.contains("region " + Stimulus.SOURCE)) {
                return "7.4.2"; // a READ completed with a byte missing, or its sink does not hold the bytes answered
            }
            return what.contains("READ_REQUEST") ? "5.2.5" : "5.2.1";
        }
        if (what.contains(Stimulus.LOCKED)) {
            return "11.1.2";
        }
        if (what.contains("not to have completed yet")) {
            return "7.5.9"; // a SEND's receive completed while an earlier message of its stream was not finished
        }
        if (what.contains("expected at least 1 ACK")) {
            return "8.1.4"; // no ACK reported a path's every PSN once they had all arrived
        }
        if (what.contains("NACK")) {
            return stimulus.refusals.stream()
                    .filter(r -> what.toUpperCase(java.util.Locale.ROOT)
                            .contains("CODE " + r.fault().nackCode()))
                    .map(r -> r.fault().clause())
                    .findFirst()
                    .orElse("9.1.1");
        }
        return readClause(stimulus, what).orElse("7.1.1");
    }

    /**
     * The clause of a failure of the device's answer to the tester's READs, by the failure's own words (not those of
     * the packets it quotes): more READ_RESPONSEs than the accepted READs need (a refused READ answered, else one
     * answered twice, 7.4.3), a READ not answered whole or with other bytes (7.4.1), a READ_RESPONSE naming another
     * READ (5.2.6), a READ_RESPONSE not filled at the MTU (4.1.9).
     */
    private static Optional<String> readClause(final Stimulus stimulus, final String what) {
        if (what.matches("(?s).*expected at most \\d+ READ_RESPONSE from.*")) {
            return Optional.of(stimulus.refusals.stream()
                    .filter(r -> stimulus.program.messages().get(r.message()).op() == Program.Op.READ)
                    .map(r -> r.fault().clause())
                    .findFirst()
                    .orElse("7.4.3"));
        }
        if (what.matches("(?s).*(expected at least \\d+ READ_RESPONSE from|whole READ_RESPONSE message"
                + "|READ_RESPONSE on stream \\d+: expected (the )?message bytes).*")) {
            return Optional.of("7.4.1");
        }
        if (what.matches("(?s).*READ_RESPONSE on stream \\d+, PSN \\d+ on path \\d+: (sink handle|MSN|message length):"
                + " expected.*")) {
            return Optional.of("5.2.6");
        }
        if (what.matches("(?s).*READ_RESPONSE on stream \\d+, PSN \\d+ on path \\d+: (carries|its IP datagram).*")) {
            return Optional.of("4.1.9");
        }
        return Optional.empty();
    }

    private static final java.util.regex.Pattern NAMED_CLAUSE =
            java.util.regex.Pattern.compile(": (\\d+\\.\\d+\\.\\d+): ");

    /** The failure lines of a replay's message, without its heading line (the trial vector's id). */
    private static String failureLines(final String message) {
        if (message == null) {
            return "";
        }
        final int newline = message.indexOf('\n');
        return (newline < 0 ? message : message.substring(newline + 1)).strip().replace("\n  ", "; ");
    }

    private static String firstLine(final String message) {
        if (message == null) {
            return "";
        }
        final int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    /** The end state against the program's model. */
    List<Finding> judgeState(final Stimulus stimulus, final RecordingControl control) throws DutControlException {
        final List<Finding> findings = new ArrayList<>();
        if (control.finalRegion().isPresent()) {
            final byte[] actual = control.finalRegion().get();
            for (int i = 0; i < actual.length; i++) {
                if (actual[i] != stimulus.region[i]) {
                    findings.add(new Finding(
                            clauseOfByte(stimulus, i),
                            String.format(
                                    "region byte %d holds 0x%02x, the program wrote 0x%02x there (%s)",
                                    i, actual[i], stimulus.region[i], whoseByte(stimulus, i)),
                            "state"));
                    break;
                }
            }
        }
        final boolean sends = stimulus.program.deviceSends();
        final List<DutCompletion> ours = new ArrayList<>();
        for (final DutCompletion completion : control.finalCompletions()) {
            if (completion.connection() != VectorReplay.DUT_CONNECTION) {
                continue;
            }
            final boolean receive = completion.type() == CompletionType.RECEIVE
                    || completion.type() == CompletionType.RECEIVE_IMMEDIATE;
            if (receive != sends) {
                ours.add(completion);
            } else {
                findings.add(new Finding(
                        "7.5.5",
                        "a completion of a " + (sends ? "receive" : "work request") + " never posted: " + completion,
                        "state"));
            }
        }
        for (final Stimulus.Expected expected : stimulus.completions) {
            final List<DutCompletion> matching = ours.stream()
                    .filter(c -> sends
                            ? c.wrId() == expected.wrId()
                            : c.stream() == expected.stream() && c.msn() == expected.msn())
                    .toList();
            final String message = "message " + expected.message() + " (stream " + expected.stream() + ", MSN "
                    + expected.msn() + ", " + expected.type() + (sends ? ", work request " + expected.wrId() : "")
                    + ")";
            if (matching.isEmpty()) {
                findings.add(new Finding(
                        "7.5.1",
                        message + " raised no completion; the device delivered " + control.finalCompletions(),
                        "state"));
                continue;
            }
            if (matching.size() > 1) {
                findings.add(new Finding("7.5.5", message + " raised " + matching.size() + " completions", "state"));
            }
            final DutCompletion actual = matching.get(0);
            final boolean immediate = expected.type() == CompletionType.RECEIVE_IMMEDIATE;
            final String clause = sends ? "7.5.4" : immediate ? "7.2.2" : "7.3.1";
            if (expected.status() != CompletionStatus.SUCCESS) {
                // A refused SEND's receive (clause 7.3.3) or a NACKed work request (9.1.7): only its status is fixed.
                if (actual.status() != expected.status() || actual.wrId() != expected.wrId()) {
                    findings.add(new Finding(
                            sends ? "9.1.7" : "7.3.3",
                            message + " completed " + (sends ? "work request " : "receive ") + actual.wrId() + " "
                                    + actual.status() + ", not " + expected.wrId() + " " + expected.status(),
                            "state"));
                }
            } else if (actual.status() != CompletionStatus.SUCCESS) {
                findings.add(
                        new Finding(sends ? "7.5.4" : "7.5.1", message + " completed " + actual.status(), "state"));
            } else if (actual.type() != expected.type()) {
                findings.add(new Finding(clause, message + " completed as " + actual.type(), "state"));
            } else if (sends && (actual.stream() != expected.stream() || actual.msn() != expected.msn())) {
                findings.add(new Finding(
                        "7.5.7",
                        message + " completed on stream " + actual.stream() + " with MSN " + actual.msn(),
                        "state"));
            } else if (actual.wrId() != expected.wrId()) {
                findings.add(new Finding(
                        clause, message + " completed receive " + actual.wrId() + ", not " + expected.wrId(), "state"));
            } else if (actual.length() != expected.length()) {
                findings.add(new Finding(
                        clause,
                        message + " completed with length " + actual.length() + ", not " + expected.length(),
                        "state"));
            } else if (immediate && actual.immediate() != expected.immediate()) {
                findings.add(new Finding(
                        "7.2.2",
                        String.format(
                                "%s completed with immediate 0x%08x, not 0x%08x",
                                message, actual.immediate(), expected.immediate()),
                        "state"));
            }
        }
        for (final DutCompletion completion : ours) {
            if (stimulus.completions.stream()
                    .noneMatch(e -> sends
                            ? e.wrId() == completion.wrId()
                            : e.stream() == completion.stream() && e.msn() == completion.msn())) {
                final boolean ofRefused = !sends
                        && stimulus.refusals.stream()
                                .anyMatch(r -> r.stream() == completion.stream() && r.msn() == completion.msn());
                findings.add(
                        ofRefused
                                ? new Finding("9.1.3", "a completion of a refused message: " + completion, "state")
                                : new Finding("7.5.5", "a completion of no message: " + completion, "state"));
            }
        }
        for (int stream = 0; stream < stimulus.program.streams(); stream++) {
            long last = -1;
            for (final DutCompletion completion : ours) {
                if (completion.stream() != stream) {
                    continue;
                }
                // When the device sends, its MSNs are checked above; the order is that of posting (work request ids).
                final long order = sends ? completion.wrId() : completion.msn();
                if (order < last) {
                    findings.add(new Finding(
                            "7.5.2",
                            "stream " + stream + ": the completion of " + (sends ? "work request " : "MSN ") + order
                                    + " came after that of " + last,
                            "state"));
                    break;
                }
                last = order;
            }
        }
        return findings;
    }

    /**
     * When the tester sends READs: how many READ_RESPONSE PSNs the device sent for each (the READ's stream and MSN),
     * against the number the READ needs at the device's MTU (clause 4.1.9; a resend repeats its PSN). More for a READ
     * whose READ_REQUEST arrived twice is a READ executed again (7.4.3); more otherwise, an answer that is not exactly
     * the READ's bytes (7.4.1); any for a refused READ, a READ not refused as its fault's clause requires; any for a
     * stream and MSN no READ_REQUEST carried, a READ_RESPONSE that does not name its READ (5.2.6). Fewer is left to
     * replay, which waits for the whole answer.
     */
    static List<Finding> judgeReadAnswers(final Stimulus stimulus, final List<ReceivedPacket> received) {
        if (stimulus.program.deviceSends()) {
            return List.of();
        }
        final Map<String, java.util.Set<String>> psns = new java.util.HashMap<>();
        for (final ReceivedPacket packet : received) {
            packet.data()
                    .filter(d -> d.opcode() == org.mrconf.wire.Opcode.READ_RESPONSE
                            && d.header().destinationConnectionId() == VectorReplay.TESTER_CONNECTION)
                    .ifPresent(d -> psns.computeIfAbsent(
                                    d.streamId() + "/" + d.messageSequenceNumber(), k -> new java.util.HashSet<>())
                            .add(d.header().pathId() + "/" + d.header().psn()));
        }
        final List<Finding> findings = new ArrayList<>();
        for (final Stimulus.Read read : stimulus.reads) {
            final int sent = psns.getOrDefault(read.stream() + "/" + read.msn(), java.util.Set.of())
                    .size();
            if (sent > read.packets()) {
                final long arrivals = stimulus.frames.stream()
                        .filter(f -> f.message() == read.message() && f.intact())
                        .count();
                findings.add(new Finding(
                        arrivals > 1 ? "7.4.3" : "7.4.1",
                        String.format(
                                "the READ of message %d (stream %d, MSN %d, %d bytes), whose READ_REQUEST arrived %d"
                                        + " time(s), was answered with %d READ_RESPONSE PSNs, where %d carry it at"
                                        + " the MTU",
                                read.message(),
                                read.stream(),
                                read.msn(),
                                stimulus.program.messages().get(read.message()).length(),
                                arrivals,
                                sent,
                                read.packets()),
                        "state"));
            }
        }
        final java.util.Set<String> named = new java.util.HashSet<>();
        stimulus.reads.forEach(r -> named.add(r.stream() + "/" + r.msn()));
        stimulus.refusals.forEach(r -> named.add(r.stream() + "/" + r.msn()));
        psns.keySet().stream()
                .filter(key -> !named.contains(key))
                .sorted()
                .findFirst()
                .ifPresent(key -> findings.add(new Finding(
                        "5.2.6",
                        "READ_RESPONSEs named stream/MSN " + key + ", which no READ_REQUEST of the tester carried",
                        "state")));
        for (final Stimulus.Refusal refusal : stimulus.refusals) {
            final int sent = psns.getOrDefault(refusal.stream() + "/" + refusal.msn(), java.util.Set.of())
                    .size();
            if (stimulus.program.messages().get(refusal.message()).op() == Program.Op.READ && sent > 0) {
                findings.add(new Finding(
                        refusal.fault().clause(),
                        String.format(
                                "the READ of message %d (stream %d, MSN %d), which must be refused %s (%s), was"
                                        + " answered with %d READ_RESPONSE(s)",
                                refusal.message(),
                                refusal.stream(),
                                refusal.msn(),
                                refusal.fault().nackCode(),
                                refusal.fault(),
                                sent),
                        "state"));
            }
        }
        return findings;
    }

    private static String clauseOfByte(final Stimulus stimulus, final int index) {
        if (stimulus.program.deviceSends()) {
            for (final Stimulus.Chunk chunk : stimulus.chunks) {
                if (index >= chunk.offset()
                        && index < chunk.offset() + chunk.length()
                        && stimulus.program.messages().get(chunk.message()).op() == Program.Op.READ) {
                    return "7.4.2"; // a READ's sink: the bytes the tester answered with, placed at their offsets
                }
            }
            return "7.1.1"; // the source region: nothing the tester sends may change it
        }
        for (final Stimulus.Chunk chunk : stimulus.chunks) {
            if (index >= chunk.offset() && index < chunk.offset() + Math.max(chunk.span(), 1)) {
                final Program.Message message = stimulus.program.messages().get(chunk.message());
                if (message.refused()) {
                    return message.fault().clause();
                }
                if (message.op() == Program.Op.READ) {
                    return "7.4.1"; // a stretch only READs read: nothing may change it
                }
                return message.op() == Program.Op.SEND ? "7.3.1" : "7.2.1";
            }
        }
        // Past every message's stretch: only a WRITE refused for crossing the region's end reaches there.
        return stimulus.refuses(Program.Fault.CROSSES_END) ? "11.1.3" : "7.1.1";
    }

    private static String whoseByte(final Stimulus stimulus, final int index) {
        for (final Stimulus.Chunk chunk : stimulus.chunks) {
            if (index >= chunk.offset() && index < chunk.offset() + Math.max(chunk.span(), 1)) {
                final Program.Message message = stimulus.program.messages().get(chunk.message());
                return index - chunk.offset() < chunk.length()
                        ? "byte " + (index - chunk.offset()) + " of message " + chunk.message() + ", a " + message.op()
                        : "past the end of message " + chunk.message() + ", a " + message.op();
            }
        }
        return "a byte no message writes";
    }

    /** Every packet the device sent, judged by the checks of {@code analyze}: the device's FAILs. */
    private List<Finding> judgePackets(final TesterPeer peer, final Path capture) throws IOException {
        final InetSocketAddress dut = device.link().dutAddress();
        final InetAddress tester = device.link().testerAddress();
        final int testerPort = device.link().testerPort();
        record Timed(long atNs, UdpFrame.Builder frame) {}
        final List<Timed> frames = new ArrayList<>();
        for (final SentPacket sent : peer.sender().transmissions()) {
            frames.add(new Timed(
                    sent.atNs(),
                    UdpFrame.builder()
                            .srcIp(sent.sourceAddress().orElse(tester))
                            .dstIp(dut.getAddress())
                            .srcPort(sent.sourcePort())
                            .dstPort(dut.getPort())
                            .ecn(sent.ecn())
                            .payload(sent.bytes())));
        }
        boolean ecnSeen = true;
        for (final ReceivedPacket received : peer.recorder().all()) {
            ecnSeen &= received.captured().ecnObserved();
            frames.add(new Timed(
                    received.receivedNs(),
                    UdpFrame.builder()
                            .srcIp(received.captured().sourceAddress())
                            .dstIp(tester)
                            .srcPort(received.captured().sourcePort())
                            .dstPort(
                                    received.captured().destinationPort() > 0
                                            ? received.captured().destinationPort()
                                            : testerPort)
                            .ecn(received.captured().ecn())
                            .payload(received.captured().bytes())));
        }
        if (frames.isEmpty()) {
            return List.of();
        }
        frames.sort(Comparator.comparingLong(Timed::atNs));
        final long first = frames.get(0).atNs();
        try (PcapWriter writer = PcapWriter.create(capture)) {
            for (final Timed timed : frames) {
                writer.write(timed.frame()
                        .timestamp(Instant.ofEpochSecond(1_750_000_000L).plusNanos(timed.atNs() - first))
                        .build());
            }
        }
        final String end = (dut.getAddress() instanceof Inet6Address
                        ? "[" + dut.getAddress().getHostAddress() + "]"
                        : dut.getAddress().getHostAddress())
                + ":" + dut.getPort();
        final CaptureAnalysis analysis;
        try {
            analysis = CaptureAnalysis.of(
                    capture, dut.getPort(), resendMargin(), catalogue, Map.of(end, device.profile()), Optional.empty());
        } catch (final org.mrconf.pcap.CaptureFileException e) {
            throw new IOException(e.getMessage(), e);
        }
        final List<Finding> findings = new ArrayList<>();
        for (final CaseResult result : analysis.cases()) {
            if (result.verdict() == Verdict.FAIL && result.caseId().startsWith("analyze[" + end + "]")) {
                for (final String clause : result.clauses()) {
                    if (!ecnSeen && clause.equals("4.1.7")) {
                        continue; // the link did not show the ECN field: Not-ECT in the capture proves nothing
                    }
                    findings.add(new Finding(clause, firstLine(result.message()), "analyze"));
                }
            }
        }
        return findings;
    }

    /** How long after an ACK a sender may still resend what it reported: the device's ACK deadline, generously. */
    private Duration resendMargin() {
        final Duration deadline = device.profile().parameters().timers().ackDeadline();
        return deadline.multipliedBy(2).plusMillis(50);
    }

    static void deleteTree(final Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
