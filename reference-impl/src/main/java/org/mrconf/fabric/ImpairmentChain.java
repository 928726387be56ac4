package org.mrconf.fabric;

import java.util.Arrays;

/** Several impairments applied in order; a drop ends the chain, so later parts draw no randomness. */
public final class ImpairmentChain implements LinkImpairment {
    private final LinkImpairment[] parts;

    public ImpairmentChain(final LinkImpairment... parts) {
        this.parts = parts.clone();
        for (final LinkImpairment part : this.parts) {
            if (part == null) {
                throw new NullPointerException("impairment chain part");
            }
        }
    }

    @Override
    public void impair(final long nowNs, final PacketFate fate) {
        for (final LinkImpairment part : parts) {
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
