package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;

/**
 * The limits a device declares (spec clause 12.1.2; {@code limits} of the control protocol's {@code hello}).
 *
 * @param maxPaths               paths per connection, 1 to 256
 * @param maxStreams             streams per connection, 1 to 65536
 * @param maxMessageLength       bytes per message
 * @param maxOutstandingMessages outstanding messages per stream
 * @param mtu                    the largest IP MTU the device supports, bytes
 */
@API(status = MAINTAINED, since = "0.1")
public record DutLimits(int maxPaths, int maxStreams, long maxMessageLength, int maxOutstandingMessages, int mtu) {
    public DutLimits {
        check(maxPaths >= 1 && maxPaths <= 256, "maxPaths must be 1 to 256: " + maxPaths);
        check(maxStreams >= 1 && maxStreams <= 65_536, "maxStreams must be 1 to 65536: " + maxStreams);
        check(maxMessageLength >= 1, "maxMessageLength must be positive: " + maxMessageLength);
        check(maxOutstandingMessages >= 1, "maxOutstandingMessages must be positive: " + maxOutstandingMessages);
        check(mtu >= 1, "mtu must be positive: " + mtu);
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
