package org.mrconf.softdut;

/**
 * Hears each time the soft DUT's loop woke later than the deadline it slept for: its host held it back (a starved CPU,
 * the OS scheduler), so its timers fired late through no fault of its own. A tester that shares the host (the embedded
 * reference) charges these as host stalls, as it does its own ({@code StallMonitor}); a device on another host has no
 * such report.
 */
@FunctionalInterface
public interface LateWakeups {
    /** Hears nothing. */
    LateWakeups NONE = (atNs, lateNs) -> {};

    /**
     * The loop woke at {@code atNs} on its clock, {@code lateNs} after the deadline it slept for (beyond the resolution
     * of its sleep). Called on the loop's thread; must not block.
     */
    void wokeLate(long atNs, long lateNs);
}
