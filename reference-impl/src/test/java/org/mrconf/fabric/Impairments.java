package org.mrconf.fabric;

/** Test helpers that run an impairment over standalone packets. */
final class Impairments {
    private Impairments() {}

    /** Whether each of {@code packets} 100-byte packets was dropped. */
    static boolean[] decisions(final LinkImpairment impairment, final int packets) {
        final boolean[] dropped = new boolean[packets];
        final PacketFate fate = PacketFate.standalone(new byte[100]);
        for (int i = 0; i < packets; i++) {
            fate.reset((FabricPacket) fate.packet());
            impairment.impair(i, fate);
            dropped[i] = fate.isDropped();
        }
        return dropped;
    }

    static int count(final boolean[] values) {
        int count = 0;
        for (final boolean value : values) {
            count += value ? 1 : 0;
        }
        return count;
    }

    /** The mean length of runs of consecutive drops. */
    static double meanRunLength(final boolean[] dropped) {
        int runs = 0;
        int total = 0;
        for (int i = 0; i < dropped.length; i++) {
            if (dropped[i]) {
                total++;
                if (i == 0 || !dropped[i - 1]) {
                    runs++;
                }
            }
        }
        return runs == 0 ? 0.0 : (double) total / runs;
    }
}
