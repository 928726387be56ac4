package org.mrconf.runner;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.SentPacket;
import org.mrconf.peer.TesterPeer;
import org.mrconf.verdict.Evidence;
import org.mrconf.wire.DecodeStatus;
import org.mrconf.wire.DecodedPacket;
import org.mrconf.wire.Packet;
import org.mrconf.wire.PacketDecoder;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.ValueWrapper;

/**
 * What a reviewer needs to see why a case did not pass: the expected and actual values of the check that decided it
 * (from opentest4j's {@link AssertionFailedError}, which AssertJ throws, or from the message's
 * {@code expected:}/{@code but was:} lines), and the last packets the tester peer sent and received before it.
 */
final class EvidenceCollector {
    /** How many packets around the failure the evidence keeps. */
    static final int PACKETS = 64;

    private static final Pattern EXPECTED = Pattern.compile("(?s)expected:?\\s*(.*?)\\s*but was:?\\s*(.*)");

    private EvidenceCollector() {}

    static Evidence collect(
            final String caseId,
            final Optional<Throwable> thrown,
            final Optional<TesterPeer> peer,
            final long caseStartNs) {
        String expected = "";
        String actual = "";
        if (thrown.isPresent()) {
            if (thrown.get() instanceof AssertionFailedError failed && failed.isExpectedDefined()) {
                expected = text(failed.getExpected());
                actual = failed.isActualDefined() ? text(failed.getActual()) : "";
            } else if (thrown.get().getMessage() != null) {
                final Matcher m = EXPECTED.matcher(thrown.get().getMessage());
                if (m.find()) {
                    expected = m.group(1).strip();
                    actual = m.group(2).strip();
                }
            }
        }
        final List<Evidence.PacketRecord> packets =
                peer.map(p -> packets(p, caseStartNs)).orElse(List.of());
        return new Evidence(
                expected,
                actual,
                packets,
                packets.isEmpty() ? Optional.empty() : Optional.of("evidence/" + fileName(caseId) + ".pcap"));
    }

    /** A case id as a file name: letters, digits, dot, dash and underscore. */
    static String fileName(final String caseId) {
        return caseId.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    private static List<Evidence.PacketRecord> packets(final TesterPeer peer, final long caseStartNs) {
        final List<Evidence.PacketRecord> all = new ArrayList<>();
        for (final SentPacket sent : peer.sender().transmissions()) {
            final byte[] bytes = sent.bytes();
            all.add(new Evidence.PacketRecord(
                    sent.atNs() - caseStartNs,
                    "tester->dut",
                    summary(bytes),
                    HexFormat.of().formatHex(bytes)));
        }
        for (final ReceivedPacket received : peer.recorder().all()) {
            final byte[] bytes = received.captured().bytes();
            all.add(new Evidence.PacketRecord(
                    received.receivedNs() - caseStartNs,
                    "dut->tester",
                    received.packet().map(Packet::toString).orElse(received.status() + " " + received.error()),
                    HexFormat.of().formatHex(bytes)));
        }
        all.sort(Comparator.comparingLong(Evidence.PacketRecord::timeNs));
        return List.copyOf(all.subList(Math.max(0, all.size() - PACKETS), all.size()));
    }

    private static String summary(final byte[] bytes) {
        final DecodedPacket decoded = new DecodedPacket();
        final DecodeStatus status = new PacketDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length, decoded);
        return status == DecodeStatus.OK
                ? Packet.from(decoded).toString()
                : status + " " + decoded.error() + " (" + bytes.length + " bytes, sent on purpose)";
    }

    private static String text(final ValueWrapper value) {
        return value == null ? "" : value.getStringRepresentation();
    }
}
