package org.mrconf.baseline;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.mrconf.net.PacketTransmitter;

/** A transmitter that keeps a copy of every packet, for driving one endpoint by hand. */
final class CapturingTransmitter implements PacketTransmitter {
    /** One captured packet. */
    record Sent(int dstNode, int srcPort, int ecn, ByteBuffer bytes) {
        GbnHeader header() {
            return new GbnHeader().wrap(bytes, 0);
        }

        int type() {
            return header().type();
        }

        long psn() {
            return header().psn();
        }
    }

    final List<Sent> sent = new ArrayList<>();

    @Override
    public void transmit(
            final int dstNode,
            final int srcPort,
            final int ecn,
            final ByteBuffer buffer,
            final int offset,
            final int length) {
        final byte[] copy = new byte[length];
        buffer.get(offset, copy, 0, length);
        sent.add(new Sent(dstNode, srcPort, ecn, ByteBuffer.wrap(copy)));
    }

    List<Long> psns() {
        return sent.stream().map(Sent::psn).toList();
    }

    List<Long> psnsOfType(final int type) {
        return sent.stream().filter(s -> s.type() == type).map(Sent::psn).toList();
    }

    void clear() {
        sent.clear();
    }
}
