package org.mrconf.peer;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import org.apiguardian.api.API;
import org.mrconf.dut.ConnectionSpec;
import org.mrconf.dut.WireLink;

/**
 * The tester peer of one test: a {@link PeerSender} and a {@link Recorder} over one {@link WireLink}, with
 * shortcuts for the common steps. The test owns the link and closes it; closing the peer stops the recorder and
 * the sender's delay thread.
 *
 * <pre>{@code
 * try (TesterPeer peer = TesterPeer.start(link, Impairment.none(), EntropyPlan.spray(List.of(50000, 50001)))) {
 *     int mark = peer.mark();
 *     peer.send(PacketBuilder.write().connection(1).psn(0).remoteKey(key).payload(data).ackRequest());
 *     peer.await(mark, PacketMatcher.expect().ack().path(0).covers(0), Duration.ofMillis(50));
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class TesterPeer implements AutoCloseable {
    private final WireLink link;
    private final PeerSender sender;
    private final Recorder recorder;

    private TesterPeer(WireLink link, PeerSender sender, Recorder recorder) {
        this.link = link;
        this.sender = sender;
        this.recorder = recorder;
    }

    /** Starts recording and sending with the given impairment and entropy. */
    public static TesterPeer start(WireLink link, Impairment impairment, EntropyPlan entropy) {
        Objects.requireNonNull(link, "link");
        return new TesterPeer(link, new PeerSender(link, impairment, entropy), Recorder.start(link));
    }

    /** No impairment; every packet from the tester's MetaRoCE port. */
    public static TesterPeer start(WireLink link) {
        return start(link, Impairment.none(), EntropyPlan.fixed(link.testerPort()));
    }

    public WireLink link() {
        return link;
    }

    public PeerSender sender() {
        return sender;
    }

    public Recorder recorder() {
        return recorder;
    }

    /** The tester's side of a connection the DUT was told to create with {@code spec}. */
    public PeerConnection connection(ConnectionSpec spec, int mtu) {
        return new PeerConnection(sender, recorder, spec, mtu);
    }

    public SentPacket send(PacketBuilder packet) throws IOException {
        return sender.send(packet.build());
    }

    public SentPacket send(byte[] packet) throws IOException {
        return sender.send(packet);
    }

    /** See {@link Recorder#mark()}. */
    public int mark() {
        return recorder.mark();
    }

    /** See {@link Recorder#await}. */
    public ReceivedPacket await(int mark, PacketMatcher matcher, Duration timeout) {
        return recorder.await(mark, matcher, timeout);
    }

    /** See {@link Recorder#assertNone}. */
    public void assertNone(int mark, PacketMatcher matcher, Duration during) {
        recorder.assertNone(mark, matcher, during);
    }

    @Override
    public void close() {
        recorder.close();
        sender.close();
    }
}
