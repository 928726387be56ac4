package org.mrconf.dut;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.Objects;
import org.apiguardian.api.API;
import org.mrconf.pcap.Ecn;

/**
 * A UDP datagram as {@link QueueWireLink} hands it between the tester and an in-process DUT, in either direction.
 *
 * @param payload     the UDP payload (a MetaRoCE packet)
 * @param source      IP source address and UDP source port
 * @param destination IP destination address and UDP destination port
 * @param ecn         the IP ECN field
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record Datagram(byte[] payload, InetSocketAddress source, InetSocketAddress destination, Ecn ecn) {
    public Datagram {
        payload = payload.clone();
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(ecn, "ecn");
    }

    /** A copy of the payload. */
    @Override
    public byte[] payload() {
        return payload.clone();
    }

    public int length() {
        return payload.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Datagram d
                && Arrays.equals(payload, d.payload)
                && source.equals(d.source)
                && destination.equals(d.destination)
                && ecn == d.ecn;
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(payload), source, destination, ecn);
    }

    @Override
    public String toString() {
        return "Datagram[" + source + " > " + destination + " ecn=" + ecn + ", " + payload.length + " bytes]";
    }
}
