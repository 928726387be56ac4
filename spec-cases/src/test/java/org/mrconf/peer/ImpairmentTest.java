package org.mrconf.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.mrconf.dut.Datagram;
import org.mrconf.pcap.Ecn;

class ImpairmentTest {
    private static final long SEED = 0x5EED_1234L;
    private static final byte[] ANY = {0};

    private final Links links = new Links();

    @Test
    void shouldReplayTheSameFatesFromTheSameSeed() {
        RandomImpairment one = new RandomImpairment(SEED, 0.1, 0.05, Duration.ofMillis(1), 0.05, 0.05, 3);
        RandomImpairment two = new RandomImpairment(SEED, 0.1, 0.05, Duration.ofMillis(1), 0.05, 0.05, 3);
        RandomImpairment other = new RandomImpairment(SEED + 1, 0.1, 0.05, Duration.ofMillis(1), 0.05, 0.05, 3);

        List<Fate> first = fates(one, 0, 2000);
        List<Fate> backwards = new ArrayList<>();
        for (long i = 1999; i >= 0; i--) {
            backwards.add(0, two.decide(i, ANY));
        }

        assertThat(backwards).isEqualTo(first);
        assertThat(fates(other, 0, 2000)).isNotEqualTo(first);
        assertThat(first).extracting(Fate::kind).contains(Fate.Kind.values());
        assertThat(first)
                .filteredOn(f -> f.kind() == Fate.Kind.REORDER)
                .extracting(Fate::behind)
                .allMatch(b -> b >= 1 && b <= 3);
        assertThat(first)
                .filteredOn(f -> f.kind() == Fate.Kind.DELAY)
                .extracting(Fate::delay)
                .allMatch(d -> d.compareTo(Duration.ofMillis(1)) <= 0);
    }

    @Test
    void shouldLoseAboutTheAskedShare() {
        long dropped = fates(RandomImpairment.loss(SEED, 0.1), 0, 10_000).stream()
                .filter(f -> f.kind() == Fate.Kind.DROP)
                .count();

        assertThat(dropped).isBetween(850L, 1150L);
    }

    @Test
    void shouldApplyAScriptByIndex() throws Exception {
        ScriptedImpairment script = ScriptedImpairment.builder()
                .drop(1)
                .duplicate(2, 2)
                .reorder(3, 2)
                .build();
        PeerSender sender = new PeerSender(links.link, script, EntropyPlan.fixed(50_000));

        for (int i = 0; i < 6; i++) {
            sender.send(new byte[] {(byte) i});
        }

        assertThat(links.firstBytes()).containsExactly(0, 2, 2, 4, 5, 3);
        assertThat(sender.decisions())
                .extracting(p -> p.fate().kind())
                .containsExactly(
                        Fate.Kind.DELIVER,
                        Fate.Kind.DROP,
                        Fate.Kind.DUPLICATE,
                        Fate.Kind.REORDER,
                        Fate.Kind.DELIVER,
                        Fate.Kind.DELIVER);
        assertThat(sender.transmissions()).extracting(SentPacket::index).containsExactly(0L, 2L, 2L, 4L, 5L, 3L);
    }

    @Test
    void shouldReleaseHeldAndDelayedPacketsOnFlush() throws Exception {
        ScriptedImpairment script = ScriptedImpairment.builder()
                .delay(0, Duration.ofMillis(30))
                .reorder(2, 5)
                .build();
        PeerSender sender = new PeerSender(links.link, script, EntropyPlan.fixed(50_000));

        for (int i = 0; i < 3; i++) {
            sender.send(new byte[] {(byte) i});
        }
        assertThat(links.firstBytes()).containsExactly(1);
        sender.flush(Duration.ofSeconds(2));

        assertThat(links.firstBytes()).containsExactly(1, 2, 0);
        sender.close();
    }

    @Test
    void shouldSprayEntropyAndMarkEcn() throws Exception {
        PeerSender sender = new PeerSender(
                        links.link, Impairment.none(), EntropyPlan.spray(List.of(50_000, 50_001, 50_002)))
                .defaultEcn(Ecn.ECT_0);

        for (int i = 0; i < 4; i++) {
            sender.send(PacketBuilder.write().path(i).build());
        }
        sender.send(PacketBuilder.write().build(), 60_000, Ecn.CE);

        assertThat(links.toDut)
                .extracting(d -> d.source().getPort())
                .containsExactly(50_000, 50_001, 50_002, 50_000, 60_000);
        assertThat(links.toDut)
                .extracting(Datagram::ecn)
                .containsExactly(Ecn.ECT_0, Ecn.ECT_0, Ecn.ECT_0, Ecn.ECT_0, Ecn.CE);
        assertThat(EntropyPlan.perPath(List.of(1, 2)).sourcePort(3, 99)).isEqualTo(2);
    }

    private static List<Fate> fates(Impairment impairment, long from, long to) {
        List<Fate> fates = new ArrayList<>();
        for (long i = from; i < to; i++) {
            fates.add(impairment.decide(i, ANY));
        }
        return fates;
    }
}
