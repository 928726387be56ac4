package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Who made the device under test and which software drives it (spec clause 12.1.2): from the agent's
 * {@code hello} and from the {@link DeviceDeclaration}; reports print it.
 */
@API(status = MAINTAINED, since = "0.1")
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
