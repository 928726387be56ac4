package org.mrconf.fabric;

/**
 * A seeded, deterministic way a link mistreats packets: loss, bursts of loss, jitter, duplication,
 * corruption, blackouts. A {@link Link} calls it once for each packet entering the link, before the
 * packet is queued, with the packet's {@link PacketFate} to decide on. Set one per link with
 * {@link Link#impairment(Impairment)}, combine several with {@link #then(Impairment)}, and change them
 * over time with {@link Fabric#scheduleImpairment(long, Link, Impairment)}.
 *
 * <p>Not to be confused with {@code org.mrconf.peer.Impairment}, the tester's send-side impairment: the two share a
 * name because both decide a packet's fate, but this one belongs to the simulated network and the reference, which
 * must never share code with the suite that tests it.
 *
 * <p>Implementations draw randomness only from their own {@link SeededRandom}, so the same seed and the
 * same packets give the same decisions.
 */
@FunctionalInterface
public interface Impairment {
    /** Leaves every packet alone. */
    Impairment NONE = (nowNs, fate) -> {};

    /** Applies all {@code parts} in order, stopping once one drops the packet. */
    static Impairment chain(final Impairment... parts) {
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
    default Impairment then(final Impairment next) {
        return new ImpairmentChain(this, next);
    }
}
