package org.mrconf.defect;

import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * An immutable set of active {@link Defect}s, passed down through the endpoint and soft-DUT configuration. Decision
 * points read {@link #has} once, at construction, into a final field.
 */
public final class Defects {
    /** The clean reference: no defect active. */
    public static final Defects NONE = new Defects(EnumSet.noneOf(Defect.class));

    private final Set<Defect> active;

    private Defects(final EnumSet<Defect> active) {
        this.active = Collections.unmodifiableSet(active);
    }

    public static Defects of(final Defect... defects) {
        return of(List.of(defects));
    }

    public static Defects of(final Collection<Defect> defects) {
        return defects.isEmpty() ? NONE : new Defects(EnumSet.copyOf(defects));
    }

    /**
     * Parses a comma-separated list of defect names ({@link Defect#flagName()}); blank means none.
     *
     * @throws IllegalArgumentException for an unknown name, listing every known one
     */
    public static Defects parse(final String names) {
        if (names == null || names.isBlank()) {
            return NONE;
        }
        final EnumSet<Defect> parsed = EnumSet.noneOf(Defect.class);
        for (final String name : names.split(",")) {
            if (!name.isBlank()) {
                parsed.add(Defect.fromName(name));
            }
        }
        return of(parsed);
    }

    /** Whether {@code defect} is active. */
    public boolean has(final Defect defect) {
        return active.contains(defect);
    }

    public boolean isEmpty() {
        return active.isEmpty();
    }

    /** The active defects, in catalogue order. */
    public Set<Defect> active() {
        return active;
    }

    /** The active defects' flag names, in catalogue order, as {@code hello} reports them. */
    public List<String> names() {
        return active.stream().map(Defect::flagName).toList();
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof Defects that && active.equals(that.active);
    }

    @Override
    public int hashCode() {
        return active.hashCode();
    }

    @Override
    public String toString() {
        return active.isEmpty() ? "no defects" : String.join(",", names());
    }
}
