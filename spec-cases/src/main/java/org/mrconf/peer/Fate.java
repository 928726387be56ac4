package org.mrconf.peer;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What an {@link Impairment} does to one packet the peer sends.
 *
 * @param kind   deliver, drop, delay, duplicate or reorder
 * @param delay  for {@link Kind#DELAY}: how long the packet is held; else zero
 * @param copies for {@link Kind#DUPLICATE}: how many times it is sent in all (at least 2); else 1
 * @param behind for {@link Kind#REORDER}: how many later packets overtake it (at least 1); else 0
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record Fate(Kind kind, Duration delay, int copies, int behind) {
    /** The fates a packet can meet. */
    public enum Kind {
        DELIVER,
        DROP,
        DELAY,
        DUPLICATE,
        REORDER
    }

    private static final Fate DELIVER = new Fate(Kind.DELIVER, Duration.ZERO, 1, 0);
    private static final Fate DROP = new Fate(Kind.DROP, Duration.ZERO, 0, 0);

    public Fate {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative: " + delay);
        }
    }

    public static Fate deliver() {
        return DELIVER;
    }

    public static Fate drop() {
        return DROP;
    }

    public static Fate delay(Duration delay) {
        return new Fate(Kind.DELAY, delay, 1, 0);
    }

    /** Sent {@code copies} times in a row (2 = one duplicate). */
    public static Fate duplicate(int copies) {
        if (copies < 2) {
            throw new IllegalArgumentException("a duplicate needs at least 2 copies: " + copies);
        }
        return new Fate(Kind.DUPLICATE, Duration.ZERO, copies, 0);
    }

    /** Held until {@code behind} later packets have been sent, then sent: those packets overtake it. */
    public static Fate reorder(int behind) {
        if (behind < 1) {
            throw new IllegalArgumentException("a reordered packet is overtaken by at least 1 packet: " + behind);
        }
        return new Fate(Kind.REORDER, Duration.ZERO, 1, behind);
    }

    @Override
    public String toString() {
        return switch (kind) {
            case DELIVER, DROP -> kind.name();
            case DELAY -> "DELAY(" + delay.toNanos() / 1000 + " us)";
            case DUPLICATE -> "DUPLICATE(x" + copies + ")";
            case REORDER -> "REORDER(behind " + behind + ")";
        };
    }
}
