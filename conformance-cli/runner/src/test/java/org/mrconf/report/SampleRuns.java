package org.mrconf.report;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.mrconf.verdict.CaseKind;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.Evidence;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;

/**
 * Fixed run records for the report tests: every verdict, evidence with packets and numbers, and strings a hostile
 * device could send back (markup, quotes, control characters, a script tag, characters outside the BMP).
 */
final class SampleRuns {
    static final Instant START = Instant.parse("2026-11-30T10:00:00Z");
    /** A string a device could put in its identity or an error message to break a report that does not escape. */
    static final String HOSTILE = "<script>alert('x')</script>\"&amp;]]><!-- \u0007\u001b[31m \uD83D\uDE00 \\";

    private static final Evidence.PacketRecord SENT = new Evidence.PacketRecord(
            1_000, PcapSlices.TESTER_TO_DUT, "WRITE path=1 psn=7 len=4", "0100000700000001deadbeef");
    private static final Evidence.PacketRecord ACK =
            new Evidence.PacketRecord(52_000, PcapSlices.DUT_TO_TESTER, "ACK path=1 psn=6 sack=0x0", "02000006");
    private static final Evidence.PacketRecord RESEND = new Evidence.PacketRecord(
            3_100_000, PcapSlices.DUT_TO_TESTER, "WRITE path=2 psn=7 len=4 " + HOSTILE, "0100000700000002cafe");

    private SampleRuns() {}

    /** A finished run with one case of each verdict. */
    static RunRecord finished() {
        return record(Optional.of(START.plusSeconds(12)), false, cases());
    }

    /** A run still going (finishedAt empty): the runner writes this after each case. */
    static RunRecord running() {
        return record(Optional.empty(), false, cases().subList(0, 2));
    }

    /** A run cut short by SIGINT. */
    static RunRecord interrupted() {
        return record(Optional.of(START.plusSeconds(5)), true, cases().subList(0, 3));
    }

    /** A finished run that also replayed a test vector, with its hashes. */
    static RunRecord withVector() {
        final RunRecord r = finished();
        final List<CaseResult> cases = new java.util.ArrayList<>(r.cases());
        cases.add(new CaseResult(
                "vector:6.5.1/duplicate-write",
                "6.5.1/duplicate-write",
                List.of("6.5.1"),
                CaseKind.INOPPORTUNE,
                Verdict.PASS,
                "",
                START.plusMillis(900),
                400_000_000L,
                Evidence.NONE));
        final java.util.TreeMap<String, String> files = new java.util.TreeMap<>();
        files.put("6.5.1/duplicate-write/stimulus.pcap", "ab".repeat(32));
        files.put("6.5.1/duplicate-write/vector.json", "cd".repeat(32));
        return new RunRecord(
                r.suiteVersion(),
                r.suiteCommit(),
                r.specVersion(),
                r.commandLine(),
                r.dut(),
                r.startedAt(),
                r.finishedAt(),
                r.interrupted(),
                r.selection(),
                cases,
                clausesOf(cases),
                List.of(new org.mrconf.verdict.VectorDigest(
                        "6.5.1/duplicate-write", org.mrconf.replay.VectorFiles.digest(files), files)));
    }

    /**
     * A finished run whose failing cases state their numbers only in AssertJ's words, as the timer cases do, with an
     * evidence pcap each; and a vector that failed.
     */
    static RunRecord withNumbers() {
        final RunRecord r = finished();
        final List<CaseResult> cases = new java.util.ArrayList<>(r.cases());
        cases.add(new CaseResult(
                "TimerCase.backsOffFromTheInitialRtoToTheMaximum",
                "The RTO backs off from the initial RTO to the maximum",
                List.of("6.5.1"),
                CaseKind.VALID,
                Verdict.FAIL,
                "[6.6.3: interval before resend 3: between 20000 and 100000 us] \nExpecting actual:\n  2080150L\n"
                        + "to be between:\n  [20000000L, 100000000L]",
                START.plusMillis(6000),
                900_000_000L,
                new Evidence(
                        "",
                        "",
                        List.of(SENT, ACK),
                        Optional.of("evidence/TimerCase.backsOffFromTheInitialRtoToTheMaximum.pcap"))));
        cases.add(new CaseResult(
                "vector:10.1.1/dut-path-window-halves-on-ce",
                "10.1.1/dut-path-window-halves-on-ce",
                List.of("6.4.2"),
                CaseKind.VALID,
                Verdict.FAIL,
                "[6.6.3: late ACK] \nExpecting actual:\n  12146446L\nto be greater than or equal to:\n  236000000L",
                START.plusMillis(7000),
                100_000_000L,
                new Evidence(
                        "",
                        "",
                        List.of(SENT),
                        Optional.of("evidence/vector_10.1.1_dut-path-window-halves-on-ce.pcap"))));
        return withCases(r, cases);
    }

    static RunRecord withCases(final RunRecord r, final List<CaseResult> cases) {
        return new RunRecord(
                r.suiteVersion(),
                r.suiteCommit(),
                r.specVersion(),
                r.commandLine(),
                r.dut(),
                r.startedAt(),
                r.finishedAt(),
                r.interrupted(),
                r.selection(),
                cases,
                clausesOf(cases));
    }

    static CaseResult withEvidence(final CaseResult c, final Evidence e) {
        return new CaseResult(
                c.caseId(),
                c.title(),
                c.clauses(),
                c.kind(),
                c.verdict(),
                c.message(),
                c.startedAt(),
                c.durationNs(),
                e);
    }

    static CaseResult withPcap(final CaseResult c, final String file) {
        final Evidence e = c.evidence();
        return withEvidence(c, new Evidence(e.expected(), e.actual(), List.of(SENT, ACK), Optional.of(file)));
    }

    private static RunRecord record(
            final Optional<Instant> finishedAt, final boolean interrupted, final List<CaseResult> cases) {
        return new RunRecord(
                "0.1.0-SNAPSHOT",
                "0123456789abcdef0123456789abcdef01234567",
                "0.1",
                "./metaroce run --dut my-nic.json --profile core,multipath",
                new RunRecord.DutDescription(
                        "my-nic.json",
                        "Acme " + HOSTILE,
                        "NIC-9000",
                        "fw 1.2.3",
                        "acme-rdma 4.5",
                        List.of("core", "multipath"),
                        List.of("4.1.5"),
                        List.of(),
                        Map.of("mtu", "4176", "paths", "4", "timers.minRtoUs", "2000"),
                        "udp"),
                START,
                finishedAt,
                interrupted,
                Map.of("profile", "core,multipath"),
                cases,
                clausesOf(cases));
    }

    private static List<CaseResult> cases() {
        return List.of(
                new CaseResult(
                        "DataPathCase.outOfOrderWrite",
                        "An out-of-order WRITE lands at its offset",
                        List.of("6.4.2"),
                        CaseKind.VALID,
                        Verdict.PASS,
                        "",
                        START.plusMillis(100),
                        250_000_000L,
                        Evidence.NONE),
                new CaseResult(
                        "SelectiveRetransmissionCase.resendsExactlyTheMissingPacket",
                        "The DUT resends exactly the missing PSN on its path",
                        List.of("4.1.9", "6.4.2"),
                        CaseKind.VALID,
                        Verdict.FAIL,
                        "[4.1.9: same path]\nexpected: 1\n but was: 2 " + HOSTILE,
                        START.plusMillis(400),
                        3_200_000_000L,
                        new Evidence(
                                "1",
                                "2",
                                List.of(SENT, ACK, RESEND),
                                Optional.of(
                                        "evidence/SelectiveRetransmissionCase.resendsExactlyTheMissingPacket.pcap"))),
                new CaseResult(
                        "CongestionCase.ecnMarkSlowsTheSender",
                        "An ECN mark reduces the send rate",
                        List.of("4.1.5"),
                        CaseKind.VALID,
                        Verdict.WARN,
                        "rate after the mark: expected at most 50 percent but was 75 percent",
                        START.plusMillis(3700),
                        800_000_000L,
                        new Evidence("<= 50 percent", "75 percent", List.of(), Optional.empty())),
                new CaseResult(
                        "TimerCase.rtoBackoff",
                        "The RTO doubles after each timeout",
                        List.of("6.5.1"),
                        CaseKind.INOPPORTUNE,
                        Verdict.INCONCLUSIVE,
                        "tester timestamps (1 ms) are too coarse for the declared tolerance (50 us)",
                        START.plusMillis(4600),
                        1_000_000_000L,
                        Evidence.NONE),
                new CaseResult(
                        "DataPathCase.readReturnsRegionBytes",
                        "A READ returns the region's bytes",
                        List.of("5.2.6"),
                        CaseKind.VALID,
                        Verdict.NOT_APPLICABLE,
                        "the device does not claim profile 'read'",
                        START.plusMillis(5700),
                        0L,
                        Evidence.NONE),
                new CaseResult(
                        "IntegrityCase.truncatedPacketIsDropped",
                        "A truncated packet is dropped " + HOSTILE,
                        List.of("5.1.3"),
                        CaseKind.INVALID,
                        Verdict.ERROR,
                        "the device's control channel closed: connection reset " + HOSTILE,
                        START.plusMillis(5800),
                        5_000_000_000L,
                        Evidence.NONE),
                // 4.1.6 passes on the purpose this link carries and is partial: the other purpose needs raw Ethernet.
                new CaseResult(
                        "UdpChecksumCase.overIpv6",
                        "The DUT drops a datagram with a wrong UDP checksum over IPv6",
                        List.of("4.1.6"),
                        CaseKind.INVALID,
                        Verdict.PASS,
                        "",
                        START.plusMillis(10_900),
                        300_000_000L,
                        Evidence.NONE),
                new CaseResult(
                        "UdpChecksumCase.overIpv4",
                        "The DUT accepts a zero UDP checksum over IPv4",
                        List.of("4.1.6"),
                        CaseKind.VALID,
                        Verdict.NOT_APPLICABLE,
                        LINK_CANNOT + "needs an IPv4 link that builds whole frames with chosen UDP checksums (raw"
                                + " Ethernet)",
                        START.plusMillis(11_200),
                        0L,
                        Evidence.NONE));
    }

    /** How a case's reason begins when the link cannot carry it (spec-cases' Applicability). */
    static final String LINK_CANNOT = org.mrconf.cases.Applicability.LINK_CANNOT;

    private static List<ClauseResult> clausesOf(final List<CaseResult> cases) {
        return org.mrconf.verdict.ClauseVerdicts.combine(cases, new Info(), List.of());
    }

    /** The catalogue facts of the clauses the sample cases name. */
    private static final class Info implements org.mrconf.verdict.ClauseVerdicts.ClauseInfo {
        private static final Map<String, String[]> CLAUSES = Map.of(
                "4.1.5", new String[] {"ECN marks reduce the sending rate", "SHOULD", "congestion"},
                "4.1.6", new String[] {"UDP checksum", "MUST", "core"},
                "4.1.9", new String[] {"Selective retransmission on the original path", "MUST", "multipath"},
                "5.1.3", new String[] {"Truncated packets are dropped", "MUST", "core"},
                "5.2.6", new String[] {"READ returns the region's bytes", "MUST", "read"},
                "6.4.2", new String[] {"Out-of-order placement", "MUST", "core"},
                "6.5.1", new String[] {"Retransmission timeout back-off", "MUST", "core"});

        @Override
        public String title(final String clauseId) {
            return CLAUSES.get(clauseId)[0];
        }

        @Override
        public String level(final String clauseId) {
            return CLAUSES.get(clauseId)[1];
        }

        @Override
        public String profile(final String clauseId) {
            return CLAUSES.get(clauseId)[2];
        }
    }
}
