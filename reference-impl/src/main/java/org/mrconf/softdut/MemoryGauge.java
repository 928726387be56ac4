package org.mrconf.softdut;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;

/**
 * How full the heap is, as the soft DUT's loop asks before it takes on more work: the share of the
 * maximum heap that the last garbage collection of each heap pool left in use. Live data, not garbage
 * awaiting collection, so a busy but healthy DUT does not read as full.
 */
@FunctionalInterface
interface MemoryGauge {
    /** The share of the maximum heap in use after the last collection, 0 to 1. */
    double heapFullness();

    /** The JVM's own heap. */
    static MemoryGauge jvm() {
        final List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP && pool.isCollectionUsageThresholdSupported())
                .toList();
        final long max = Runtime.getRuntime().maxMemory();
        return () -> {
            long used = 0;
            for (final MemoryPoolMXBean pool : pools) {
                final MemoryUsage usage = pool.getCollectionUsage();
                used += usage == null ? 0 : usage.getUsed();
            }
            return max <= 0 || max == Long.MAX_VALUE ? 0 : (double) used / max;
        };
    }
}
