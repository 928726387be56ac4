package org.mrconf.dut;

import java.util.Objects;

/**
 * Who made the device under test and which software drives it (spec clause 12.1.2): from the agent's
 * {@code hello} and from the {@link DutProfile}; reports print it.
 */
public record DutIdentity(String vendor, String model, String firmware, String driver) {
    public DutIdentity {
        Objects.requireNonNull(vendor, "vendor");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(firmware, "firmware");
        Objects.requireNonNull(driver, "driver");
    }

    @Override
    public String toString() {
        return vendor + " " + model + " (firmware " + firmware + ", driver " + driver + ")";
    }
}
