package org.mrconf.fabric;

import java.util.Arrays;

/** Several impairments applied in order; a drop ends the chain, so later parts draw no randomness. */
public final class ImpairmentChain implements Impairment {
    private final Impairment[] parts;

    public ImpairmentChain(final Impairment... parts) {
        this.parts = parts.clone();
        for (final Impairment part : this.parts) {
            if (part == null) {
                throw new NullPointerException("impairment chain part");
            }
        }
    }

    @Override
    public void impair(final long nowNs, final PacketFate fate) {
        for (final Impairment part : parts) {
            if (fate.isDropped()) {
                return;
            }
            part.impair(nowNs, fate);
        }
    }

    @Override
    public String toString() {
        return "ImpairmentChain" + Arrays.toString(parts);
    }
}
