package org.mrconf.fabric;

/**
 * A seeded, deterministic way a link mistreats packets: loss, bursts of loss, jitter, duplication,
 * corruption, blackouts. A {@link Link} calls it once for each packet entering the link, before the
 * packet is queued, with the packet's {@link PacketFate} to decide on. Set one per link with
 * {@link Link#impairment(LinkImpairment)}, combine several with {@link #then(LinkImpairment)}, and change them
 * over time with {@link Fabric#scheduleImpairment(long, Link, LinkImpairment)}.
 *
 * <p>Named for the link, apart from the tester's send-side {@code org.mrconf.peer.Impairment}: both decide a packet's
 * fate, but this one belongs to the simulated network and the reference, which never shares code with the suite that
 * tests it.
 *
 * <p>Implementations draw randomness only from their own {@link SeededRandom}, so the same seed and the
 * same packets give the same decisions.
 */
@FunctionalInterface
public interface LinkImpairment {
    /** Leaves every packet alone. */
    LinkImpairment NONE = (nowNs, fate) -> {};

    /** Applies all {@code parts} in order, stopping once one drops the packet. */
    static LinkImpairment chain(final LinkImpairment... parts) {
        return new ImpairmentChain(parts);
    }

    /**
     * Decides the fate of one packet.
     *
     * @param nowNs the virtual time the packet enters the link
     * @param fate  the packet and the decision so far; call its mutators to impair the packet
     */
    void impair(long nowNs, PacketFate fate);

    /** This impairment, then {@code next} unless this one dropped the packet. */
    default LinkImpairment then(final LinkImpairment next) {
        return new ImpairmentChain(this, next);
    }
}
