package org.mrconf.replay;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mrconf.dut.FrameSender;
import org.mrconf.pcap.CaptureFileException;
import org.mrconf.pcap.CapturedFrame;
import org.mrconf.pcap.ChecksumMode;
import org.mrconf.pcap.Ecn;
import org.mrconf.pcap.EncodeOptions;
import org.mrconf.pcap.FrameDecodeException;
import org.mrconf.pcap.PcapReader;
import org.mrconf.pcap.UdpFrame;
import org.mrconf.peer.TesterPeer;

/**
 * Sends a vector's stimulus frames to the DUT: each frame's MetaRoCE packet with its placeholders rewritten, from the
 * wire link's address and the tester's entropy plan, except for the link-level fields the sidecar replays as captured
 * ({@link Sidecar#asCaptured()}): the frame's UDP source port, its IP ECN field, and, for a frame whose IP source is
 * not the first frame's, the link's other address. When the sidecar gives frames a deliberate UDP checksum
 * ({@link Sidecar#udpChecksums()}), every frame is built whole by the link's {@link FrameSender}, with that checksum
 * or else a right one, so that the frames of one vector all travel alike.
 */
final class StimulusSender {
    /** One stimulus frame: its MetaRoCE packet, its link-level fields, and when it was captured. */
    record Frame(byte[] packet, int sourcePort, Ecn ecn, InetAddress source, long atNs) {}

    private final List<Frame> frames;
    private final Set<String> asCaptured;
    private final TesterPeer peer;
    private final PlaceholderRewriter rewriter;
    private final Map<Integer, ChecksumMode> udpChecksums;

    StimulusSender(
            final List<Frame> frames,
            final Set<String> asCaptured,
            final Map<Integer, ChecksumMode> udpChecksums,
            final TesterPeer peer,
            final PlaceholderRewriter rewriter) {
        this.frames = List.copyOf(frames);
        this.asCaptured = asCaptured;
        this.udpChecksums = Map.copyOf(udpChecksums);
        this.peer = peer;
        this.rewriter = rewriter;
    }

    /** Reads every frame of {@code stimulus}; a frame that is not Ethernet/IP/UDP names its index. */
    static List<Frame> read(final Path stimulus) throws CaptureFileException, IOException {
        final List<Frame> frames = new ArrayList<>();
        try (PcapReader reader = PcapReader.open(stimulus)) {
            for (CapturedFrame frame = reader.next(); frame != null; frame = reader.next()) {
                final UdpFrame udp;
                try {
                    udp = frame.decode().frame();
                } catch (final FrameDecodeException e) {
                    throw new CaptureFileException(
                            stimulus, "frame " + (frame.index() + 1) + " is not Ethernet/IP/UDP: " + e.getMessage());
                }
                frames.add(new Frame(
                        udp.payloadBytes(),
                        udp.srcPort(),
                        udp.ecn(),
                        udp.srcIp(),
                        frame.timestamp().getEpochSecond() * 1_000_000_000L
                                + frame.timestamp().getNano()));
            }
        }
        return frames;
    }

    int size() {
        return frames.size();
    }

    /** When frame {@code index} was captured, in nanoseconds. */
    long capturedAtNs(final int index) {
        return frames.get(index).atNs();
    }

    /** Sends frame {@code index}, rewritten; returns the bytes sent. */
    byte[] send(final int index) throws IOException {
        final Frame frame = frames.get(index);
        final byte[] packet = rewriter.rewrite(frame.packet());
        final Ecn ecn =
                asCaptured.contains(Sidecar.ECN) ? frame.ecn() : peer.sender().defaultEcn();
        final boolean port = asCaptured.contains(Sidecar.SOURCE_PORT);
        if (!udpChecksums.isEmpty()) {
            final FrameSender whole = peer.link()
                    .frameSender()
                    .orElseThrow(() -> new IllegalStateException("the link stopped building whole frames"));
            final UdpFrame.Builder built = whole.frameTemplate().payload(packet).ecn(ecn);
            if (port) {
                built.srcPort(frame.sourcePort());
            }
            whole.sendFrame(
                    built.build(),
                    EncodeOptions.DEFAULT.withUdpChecksum(udpChecksums.getOrDefault(index, ChecksumMode.CORRECT)));
        } else if (asCaptured.contains(Sidecar.SOURCE_ADDRESS)
                && !frame.source().equals(frames.get(0).source())) {
            final InetAddress other = peer.link()
                    .alternateSourceAddress()
                    .orElseThrow(() -> new IllegalStateException("the link stopped offering another address"));
            peer.link()
                    .sendFrom(
                            other,
                            packet,
                            port ? frame.sourcePort() : peer.link().testerPort(),
                            ecn);
        } else if (port) {
            peer.sender().send(packet, frame.sourcePort(), ecn);
        } else {
            peer.sender().send(packet, ecn);
        }
        return packet;
    }
}
