package org.mrconf.net;

/**
 * A source of time in nanoseconds. Protocol logic never reads the system clock: the simulator hands it
 * virtual time and the socket driver real time, so simulation is deterministic.
 */
@FunctionalInterface
public interface NanoClock {
    /** The current time in nanoseconds; only differences are meaningful. */
    long nanoTime();

    /** The JVM's monotonic clock, for running on real sockets. */
    static NanoClock system() {
        return System::nanoTime;
    }
}
