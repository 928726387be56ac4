package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import org.mrconf.pcap.DecodedFrame;
import org.mrconf.pcap.Ecn;
import org.mrconf.wire.Packet;

/**
 * One UDP datagram the DUT sent, as a {@link WireLink} received it. The bytes are the UDP payload, meant to be a
 * MetaRoCE packet but not checked: a test may expect malformed output too.
 *
 * @param bytes         the UDP payload
 * @param sourceAddress the IP source address
 * @param sourcePort    the UDP source port (the DUT's entropy for the path)
 * @param destinationPort the UDP destination port
 * @param ecn           the IP ECN field, or {@link Ecn#NOT_ECT} when the link cannot see it
 * @param ecnObserved   whether {@code ecn} was seen on the wire ({@link WireLink.Capability#RECEIVE_ECN})
 * @param receivedNs    when the link received it, by the link's clock
 * @param frame         the whole Ethernet frame with its checksum verdicts, on links that see frames
 */
@API(status = MAINTAINED, since = "0.1")
public record CapturedPacket(
        byte[] bytes,
        InetAddress sourceAddress,
        int sourcePort,
        int destinationPort,
        Ecn ecn,
        boolean ecnObserved,
        long receivedNs,
        Optional<DecodedFrame> frame) {
    public CapturedPacket {
        bytes = bytes.clone();
        Objects.requireNonNull(sourceAddress, "sourceAddress");
        Objects.requireNonNull(ecn, "ecn");
        Objects.requireNonNull(frame, "frame");
    }

    /** A copy of the payload. */
    @Override
    public byte[] bytes() {
        return bytes.clone();
    }

    public int length() {
        return bytes.length;
    }

    /** Decodes the MetaRoCE packet, throwing {@link org.mrconf.wire.MalformedPacketException} if it is malformed. */
    public Packet decode() {
        return Packet.fromBytes(bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CapturedPacket c
                && Arrays.equals(bytes, c.bytes)
                && sourceAddress.equals(c.sourceAddress)
                && sourcePort == c.sourcePort
                && destinationPort == c.destinationPort
                && ecn == c.ecn
                && ecnObserved == c.ecnObserved
                && receivedNs == c.receivedNs
                && frame.equals(c.frame);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(bytes), sourceAddress, sourcePort, destinationPort, ecn, receivedNs);
    }

    @Override
    public String toString() {
        return "CapturedPacket[" + sourceAddress.getHostAddress() + ":" + sourcePort + " > :" + destinationPort
                + " ecn=" + (ecnObserved ? ecn : "unknown") + " at " + receivedNs + " ns, " + bytes.length + " bytes: "
                + HexFormat.of().formatHex(bytes, 0, Math.min(bytes.length, 24)) + (bytes.length > 24 ? "...]" : "]");
    }
}
