package org.mrconf.cases;

import java.util.Optional;

/**
 * The device the current run tests. The runner installs it before it launches the cases and removes it
 * afterwards; {@link DutExtension} hands it to the cases. One run at a time per JVM.
 */
public final class DutSession {
    private static volatile DeviceUnderTest current;

    private DutSession() {}

    /** Makes {@code dut} the device the cases run against; returns a handle that removes it. */
    public static AutoCloseable install(final DeviceUnderTest dut) {
        if (current != null) {
            throw new IllegalStateException("a device is already installed: " + current.name());
        }
        current = dut;
        return () -> current = null;
    }

    /** The installed device, if any. */
    public static Optional<DeviceUnderTest> current() {
        return Optional.ofNullable(current);
    }
}
