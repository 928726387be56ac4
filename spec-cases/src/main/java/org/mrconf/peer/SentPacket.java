package org.mrconf.peer;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.net.InetAddress;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import org.mrconf.pcap.Ecn;

/**
 * One packet the tester peer was asked to send, and what its {@link Impairment} did with it; or, in
 * {@link PeerSender#transmissions()}, one copy that actually went on the wire.
 *
 * @param index      the packet's position among all packets the peer was asked to send, from 0
 * @param fate       what the impairment decided (always {@link Fate#deliver()} for a transmission)
 * @param sourcePort the UDP source port (entropy)
 * @param ecn        the ECN codepoint asked for
 * @param atNs       when it was decided, or for a transmission when it went out, by the link's clock
 * @param bytes      the packet
 * @param sourceAddress the IP source address when it is not the link's tester address ({@link
 *     org.mrconf.dut.WireLink#sendFrom}); empty for the tester's own
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record SentPacket(
        long index, Fate fate, int sourcePort, Ecn ecn, long atNs, byte[] bytes, Optional<InetAddress> sourceAddress) {
    public SentPacket {
        Objects.requireNonNull(fate, "fate");
        Objects.requireNonNull(ecn, "ecn");
        Objects.requireNonNull(sourceAddress, "sourceAddress");
        bytes = bytes.clone();
    }

    /** A packet from the tester's own address. */
    public SentPacket(long index, Fate fate, int sourcePort, Ecn ecn, long atNs, byte[] bytes) {
        this(index, fate, sourcePort, ecn, atNs, bytes, Optional.empty());
    }

    @Override
    public byte[] bytes() {
        return bytes.clone();
    }

    /** The path id of the packet's common header, or -1 if it is shorter than that. */
    public int pathId() {
        return bytes.length > 8 ? bytes[8] & 0xFF : -1;
    }

    /** The PSN field of the packet's common header, or -1 if it is shorter than that. */
    public long psn() {
        return bytes.length >= 16
                ? ((bytes[12] & 0xFFL) << 24)
                        | ((bytes[13] & 0xFFL) << 16)
                        | ((bytes[14] & 0xFFL) << 8)
                        | (bytes[15] & 0xFFL)
                : -1;
    }

    @Override
    public String toString() {
        return "SentPacket[#" + index + " " + fate + " port=" + sourcePort + " ecn=" + ecn + " at " + atNs
                + " ns, path=" + pathId() + " psn=" + psn() + ", " + bytes.length + " bytes: "
                + HexFormat.of().formatHex(bytes, 0, Math.min(bytes.length, 16)) + "...]";
    }
}
