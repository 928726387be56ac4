package org.mrconf.fabric;

/**
 * Something the {@link Simulator} calls back when a scheduled event falls due. Implemented by the
 * fabric's links, in-flight packets and nodes, so scheduling them allocates nothing.
 */
@FunctionalInterface
public interface EventHandler {
    /**
     * The event is due.
     *
     * @param nowNs the virtual time, exactly the time the event was scheduled for
     * @param arg   the argument given to {@link Simulator#schedule(long, EventHandler, long)}
     */
    void onEvent(long nowNs, long arg);
}
