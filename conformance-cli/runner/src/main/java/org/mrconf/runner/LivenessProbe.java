package org.mrconf.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Optional;
import org.apiguardian.api.API;
import org.mrconf.dut.ControlEndpoint;
import org.mrconf.dut.DutControl;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.JsonLineControlClient;

/**
 * Asks whether the device is still there, quickly: the runner calls it after a case that did not pass, so that a
 * dead or hung device is detected once and the rest of the run ends in ERROR at once instead of in one timeout per
 * case.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@FunctionalInterface
public interface LivenessProbe {
    /** How long a probe of a control agent may take before the device counts as gone. */
    Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

    /** Why the device is gone, or empty when it answered. */
    Optional<String> lostReason();

    /** A device that is never lost (the embedded reference runs in this process). */
    static LivenessProbe alwaysAlive() {
        return Optional::empty;
    }

    /** How many times {@link #helloOn} asks before it deems the device gone. */
    int ATTEMPTS = 3;

    /**
     * {@code hello} on a fresh connection to {@code endpoint} with short timeouts: a fresh connection, because the
     * run's own may be stuck in a request the hung device never answers. It asks up to {@link #ATTEMPTS} times: a
     * device on a loaded machine may be slow to answer once, and a device deemed lost ends the run in ERROR.
     */
    static LivenessProbe helloOn(final ControlEndpoint endpoint, final Duration timeout) {
        return () -> {
            DutControlException last = null;
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                try (DutControl probe = JsonLineControlClient.connect(endpoint, timeout, timeout)) {
                    probe.hello();
                    return Optional.empty();
                } catch (final DutControlException e) {
                    last = e;
                }
            }
            return Optional.of("the control agent at " + endpoint.host() + ":" + endpoint.port()
                    + " did not answer hello within " + timeout.toMillis() + " ms, " + ATTEMPTS + " times ("
                    + last.getMessage() + ")");
        };
    }
}
