package org.mrconf.peer;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Decides the fate of each packet the tester peer sends: the deliberate loss, delay, duplication and reordering a
 * test puts on the peer's side of the wire. Implementations are deterministic: the same index always gets the same
 * fate ({@link ScriptedImpairment} by index, {@link RandomImpairment} by a seed), so a failing run can be replayed.
 *
 * <p>Kept apart from the simulated fabric's {@code org.mrconf.fabric.LinkImpairment} on purpose: the suite shares no
 * code with the reference it tests, and this one acts only on what the tester sends.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@FunctionalInterface
public interface Impairment {
    /**
     * @param index  the packet's position among all packets the peer has sent, from 0
     * @param packet the packet's bytes (do not modify)
     */
    Fate decide(long index, byte[] packet);

    /** Every packet delivered as sent. */
    static Impairment none() {
        return (index, packet) -> Fate.deliver();
    }
}
