package org.mrconf.dut;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.net.InetSocketAddress;
import org.apiguardian.api.API;
import org.mrconf.pcap.EncodeOptions;
import org.mrconf.pcap.MacAddress;
import org.mrconf.pcap.UdpFrame;

/**
 * What a wire link offers when it can send whole Ethernet/IP/UDP frames that it builds itself, so that a test can
 * choose the fields a socket would fill in, e.g. a wrong or zero UDP checksum (spec clause 4.1.6). A case finds it
 * through {@link WireLink#frameSender()}, never by naming the link that implements it, so that it runs unchanged on
 * every link and is not applicable where the link cannot.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface FrameSender {
    /**
     * A frame builder holding the link's MACs, addresses and ports (tester to DUT, source port = tester port,
     * Not-ECT): change a field or two and send it with {@link #sendFrame}.
     */
    UdpFrame.Builder frameTemplate();

    /**
     * The template {@link #frameTemplate} gives: the two ends' MACs, addresses and ports, tester to DUT (source port =
     * the tester's port, Not-ECT).
     */
    static UdpFrame.Builder template(
            final MacAddress testerMac,
            final MacAddress dutMac,
            final InetSocketAddress tester,
            final InetSocketAddress dut) {
        return UdpFrame.builder()
                .srcMac(testerMac)
                .dstMac(dutMac)
                .srcIp(tester.getAddress())
                .dstIp(dut.getAddress())
                .srcPort(tester.getPort())
                .dstPort(dut.getPort());
    }

    /** Sends one UDP frame, with checksums and lengths as {@code encodeOptions} say (possibly wrong on purpose). */
    void sendFrame(UdpFrame frame, EncodeOptions encodeOptions) throws IOException;
}
