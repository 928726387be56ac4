package org.mrconf.runner;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.mrconf.dut.CapturedPacket;
import org.mrconf.dut.WireLink;
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
 * {@code expected:}/{@code but was:} lines), and the last packets the tester peer sent (its ACKs included) and received
 * before it, each with the addresses, ports and ECN field its link sent or received it with.
 */
final class EvidenceCollector {
    /** How many packets of each direction, the most recent before the verdict, the evidence keeps. */
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
        final WireLink link = peer.link();
        final String tester = link.testerAddress().getHostAddress();
        final InetSocketAddress dut = link.dutAddress();
        final String dutAddress = dut.getAddress().getHostAddress();
        final List<Evidence.PacketRecord> sent = new ArrayList<>();
        final List<SentPacket> transmissions = new ArrayList<>(peer.sender().transmissions());
        transmissions.addAll(peer.sender().controlTransmissions());
        for (final SentPacket packet : transmissions) {
            final byte[] bytes = packet.bytes();
            sent.add(new Evidence.PacketRecord(
                    packet.atNs() - caseStartNs,
                    "tester->dut",
                    summary(bytes),
                    HexFormat.of().formatHex(bytes),
                    Optional.of(new Evidence.Wire(
                            packet.sourceAddress()
                                    .map(InetAddress::getHostAddress)
                                    .orElse(tester),
                            packet.sourcePort(),
                            dutAddress,
                            dut.getPort(),
                            OptionalInt.of(packet.ecn().codepoint())))));
        }
        final List<Evidence.PacketRecord> received = new ArrayList<>();
        for (final ReceivedPacket packet : peer.recorder().all()) {
            final CapturedPacket captured = packet.captured();
            final byte[] bytes = captured.bytes();
            received.add(new Evidence.PacketRecord(
                    packet.receivedNs() - caseStartNs,
                    "dut->tester",
                    packet.packet().map(Packet::toString).orElse(packet.status() + " " + packet.error()),
                    HexFormat.of().formatHex(bytes),
                    Optional.of(new Evidence.Wire(
                            captured.sourceAddress().getHostAddress(),
                            captured.sourcePort(),
                            tester,
                            captured.destinationPort(),
                            captured.ecnObserved()
                                    ? OptionalInt.of(captured.ecn().codepoint())
                                    : OptionalInt.empty()))));
        }
        // The most recent of each direction, so a DUT's long burst cannot push the tester's own packets out.
        final List<Evidence.PacketRecord> all = new ArrayList<>(latest(sent));
        all.addAll(latest(received));
        all.sort(Comparator.comparingLong(Evidence.PacketRecord::timeNs));
        return List.copyOf(all);
    }

    private static List<Evidence.PacketRecord> latest(final List<Evidence.PacketRecord> packets) {
        packets.sort(Comparator.comparingLong(Evidence.PacketRecord::timeNs));
        return packets.subList(Math.max(0, packets.size() - PACKETS), packets.size());
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
