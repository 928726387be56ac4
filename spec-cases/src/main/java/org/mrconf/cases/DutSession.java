package org.mrconf.cases;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The devices the current runs test, one per run. The runner installs a device before it launches the cases, passes
 * the session id to the launch as the configuration parameter {@value #PARAMETER}, and removes the device afterwards;
 * {@link DutExtension} hands each case the device of its own run. Several runs may go on at once in one JVM (the
 * self-test runs defects in parallel), each with its own device.
 */
public final class DutSession {
    /** The launcher configuration parameter that names the run's session. */
    public static final String PARAMETER = "mrconf.dut.session";

    private static final Map<String, DeviceUnderTest> INSTALLED = new ConcurrentHashMap<>();
    private static final AtomicLong NEXT = new AtomicLong(1);

    private DutSession() {}

    /** A device installed for one run; closing it removes the device. */
    public static final class Installed implements AutoCloseable {
        private final String id;

        private Installed(final String id) {
            this.id = id;
        }

        /** The session id to pass to the launch as {@value #PARAMETER}. */
        public String id() {
            return id;
        }

        @Override
        public void close() {
            INSTALLED.remove(id);
        }
    }

    /** Makes {@code dut} the device of a new run; returns the handle that names and removes it. */
    public static Installed install(final DeviceUnderTest dut) {
        final String id = "session-" + NEXT.getAndIncrement();
        INSTALLED.put(id, dut);
        return new Installed(id);
    }

    /** The device of the run {@code context} belongs to: the one its session parameter names. */
    public static Optional<DeviceUnderTest> of(final ExtensionContext context) {
        return context.getConfigurationParameter(PARAMETER).map(INSTALLED::get);
    }
}
