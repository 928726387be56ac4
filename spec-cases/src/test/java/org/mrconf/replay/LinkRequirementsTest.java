package org.mrconf.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.dut.QueueWireLink;
import org.mrconf.dut.WireLink;

/** Which links can replay the committed framing vectors: each is not applicable exactly where its link cannot. */
class LinkRequirementsTest {
    private static final Path COMMITTED = Path.of("..", "test-vectors");
    private static final InetSocketAddress TESTER4 = new InetSocketAddress("192.0.2.2", 4800);
    private static final InetSocketAddress DUT4 = new InetSocketAddress("192.0.2.1", 4796);
    private static final InetSocketAddress TESTER6 = new InetSocketAddress("2001:db8::2", 4800);
    private static final InetSocketAddress DUT6 = new InetSocketAddress("2001:db8::1", 4796);

    private static VectorCorpus corpus;

    @BeforeAll
    static void readTheCorpus() throws Exception {
        corpus = VectorCorpus.discover(COMMITTED, new CatalogueLoader().loadBundled());
    }

    @Test
    void shouldReplayTheIpv4CarriageOnlyOverIpv4() throws Exception {
        final TestVector vector = vector("4.1.1/udp-over-ipv4");

        assertThat(LinkRequirements.unmet(vector, datagrams(TESTER4, DUT4))).isEmpty();
        assertThat(LinkRequirements.unmet(vector, frames(TESTER4, DUT4))).isEmpty();
        assertThat(LinkRequirements.unmet(vector, datagrams(TESTER6, DUT6)))
                .hasValueSatisfying(
                        reason -> assertThat(reason).contains("IPv4").contains("carries IPv6"));
    }

    @Test
    void shouldReplayDeliberateChecksumsOnlyOnALinkOfWholeFramesOfTheirIpVersion() throws Exception {
        final TestVector ipv4 = vector("4.1.6/udp-checksums-over-ipv4");
        final TestVector ipv6 = vector("4.1.6/udp-checksums-over-ipv6");

        assertThat(LinkRequirements.unmet(ipv4, frames(TESTER4, DUT4))).isEmpty();
        assertThat(LinkRequirements.unmet(ipv6, frames(TESTER6, DUT6))).isEmpty();
        assertThat(LinkRequirements.unmet(ipv4, datagrams(TESTER4, DUT4)))
                .hasValueSatisfying(reason -> assertThat(reason).contains("does not build whole frames"));
        assertThat(LinkRequirements.unmet(ipv4, frames(TESTER6, DUT6)))
                .hasValueSatisfying(reason -> assertThat(reason).contains("carries IPv6"));
        assertThat(LinkRequirements.unmet(ipv6, frames(TESTER4, DUT4)))
                .hasValueSatisfying(reason -> assertThat(reason).contains("carries IPv4"));
    }

    @Test
    void shouldAskNothingOfTheLinkForAPlainVector() throws Exception {
        assertThat(LinkRequirements.unmet(vector("6.5.1/duplicate-write"), datagrams(TESTER6, DUT6)))
                .isEmpty();
    }

    private static TestVector vector(final String id) {
        return corpus.vectors().stream()
                .filter(v -> v.id().equals(id))
                .findFirst()
                .orElseThrow();
    }

    private static WireLink datagrams(final InetSocketAddress tester, final InetSocketAddress dut) {
        return new QueueWireLink(tester, dut, d -> {}, () -> 0L);
    }

    private static WireLink frames(final InetSocketAddress tester, final InetSocketAddress dut) {
        return QueueWireLink.carryingFrames(tester, dut, f -> {}, () -> 0L);
    }
}
