package org.mrconf.peer;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.apiguardian.api.API;

/**
 * An impairment that names its victims by index: "drop the 3rd packet, send the 5th twice, let 2 packets overtake
 * the 7th". Every index not named is delivered. Immutable; build with {@link #builder()}.
 *
 * <pre>{@code
 * Impairment i = ScriptedImpairment.builder().drop(2).duplicate(4, 2).reorder(6, 1).build();
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ScriptedImpairment implements Impairment {
    private final Map<Long, Fate> fates;

    private ScriptedImpairment(Map<Long, Fate> fates) {
        this.fates = Map.copyOf(fates);
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public Fate decide(long index, byte[] packet) {
        return fates.getOrDefault(index, Fate.deliver());
    }

    @Override
    public String toString() {
        return "ScriptedImpairment" + new TreeMap<>(fates);
    }

    /** Collects fates by packet index; a later fate for the same index replaces the earlier one. */
    public static final class Builder {
        private final Map<Long, Fate> fates = new TreeMap<>();

        private Builder() {}

        public Builder fate(long index, Fate fate) {
            if (index < 0) {
                throw new IllegalArgumentException("packet index must not be negative: " + index);
            }
            fates.put(index, fate);
            return this;
        }

        public Builder drop(long... indexes) {
            for (long index : indexes) {
                fate(index, Fate.drop());
            }
            return this;
        }

        public Builder delay(long index, Duration delay) {
            return fate(index, Fate.delay(delay));
        }

        public Builder duplicate(long index, int copies) {
            return fate(index, Fate.duplicate(copies));
        }

        public Builder reorder(long index, int behind) {
            return fate(index, Fate.reorder(behind));
        }

        public ScriptedImpairment build() {
            return new ScriptedImpairment(fates);
        }
    }
}
