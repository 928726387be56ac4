package org.mrconf.peer;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import org.mrconf.dut.CapturedPacket;
import org.mrconf.wire.AckPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.DecodeStatus;
import org.mrconf.wire.DecodedPacket;
import org.mrconf.wire.NackPacket;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.Packet;
import org.mrconf.wire.PacketDecoder;
import org.mrconf.wire.ProbePacket;

/**
 * A packet the DUT sent, as the {@link Recorder} keeps it: the captured datagram, its position in the recording
 * and the result of decoding it (a {@link Packet} record, or the decoder's status and reason when the DUT sent
 * something malformed). {@link PacketMatcher}s test these.
 *
 * @param index    position in the recording, from 0
 * @param captured the datagram as the link received it
 * @param packet   the decoded packet, empty if the decoder rejected it
 * @param status   the decoder's verdict
 * @param error    the decoder's reason for a rejection, else empty
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ReceivedPacket(
        long index, CapturedPacket captured, Optional<Packet> packet, DecodeStatus status, String error) {
    public ReceivedPacket {
        Objects.requireNonNull(captured, "captured");
        Objects.requireNonNull(packet, "packet");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(error, "error");
    }

    /** Decodes {@code captured} with the wire codec's validating decoder. */
    public static ReceivedPacket decode(long index, CapturedPacket captured) {
        byte[] bytes = captured.bytes();
        DecodedPacket decoded = new DecodedPacket();
        DecodeStatus status = new PacketDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length, decoded);
        if (status == DecodeStatus.OK) {
            return new ReceivedPacket(index, captured, Optional.of(Packet.from(decoded)), status, "");
        }
        return new ReceivedPacket(
                index, captured, Optional.empty(), status, decoded.error().toString());
    }

    public boolean isValid() {
        return packet.isPresent();
    }

    public Optional<Opcode> opcode() {
        return packet.map(Packet::opcode);
    }

    /** The packet as {@code type} if it is one, e.g. {@code as(AckPacket.class)}. */
    public <T extends Packet> Optional<T> as(Class<T> type) {
        return packet.filter(type::isInstance).map(type::cast);
    }

    public Optional<AckPacket> ack() {
        return as(AckPacket.class);
    }

    public Optional<NackPacket> nack() {
        return as(NackPacket.class);
    }

    public Optional<DataPacket> data() {
        return as(DataPacket.class);
    }

    public Optional<ProbePacket> probe() {
        return as(ProbePacket.class);
    }

    /** When the link received it, by the link's clock. */
    public long receivedNs() {
        return captured.receivedNs();
    }

    @Override
    public String toString() {
        return "#" + index + " @" + captured.receivedNs() + "ns from :" + captured.sourcePort() + " "
                + (packet.isPresent()
                        ? packet.get().toString()
                        : status + " " + error + " (" + captured.length() + " bytes)");
    }
}
