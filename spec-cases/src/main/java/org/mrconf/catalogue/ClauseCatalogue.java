package org.mrconf.catalogue;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.apiguardian.api.API;

/**
 * The machine-readable clause catalogue of one version of the draft spec. Immutable; build it with
 * {@link CatalogueLoader}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ClauseCatalogue {
    private final String spec;
    private final String specVersion;
    private final String wireVersion;
    private final List<Clause> clauses;
    private final Map<String, Clause> clausesById;

    ClauseCatalogue(final String spec, final String specVersion, final String wireVersion, final List<Clause> clauses) {
        this.spec = spec;
        this.specVersion = specVersion;
        this.wireVersion = wireVersion;
        this.clauses = List.copyOf(clauses);
        final Map<String, Clause> byId = new LinkedHashMap<>();
        for (final Clause clause : clauses) {
            byId.put(clause.id(), clause);
        }
        this.clausesById = Collections.unmodifiableMap(byId);
    }

    /** The spec's name, e.g. "MetaRoCE Open Draft". */
    public String spec() {
        return spec;
    }

    /** The spec version this catalogue describes, e.g. "0.1". */
    public String specVersion() {
        return specVersion;
    }

    /** The wire version the spec defines, e.g. "1.0". */
    public String wireVersion() {
        return wireVersion;
    }

    /** Every clause in spec order. */
    public List<Clause> clauses() {
        return clauses;
    }

    /** The clause with this id, if the catalogue has it. */
    public Optional<Clause> find(final String id) {
        return Optional.ofNullable(clausesById.get(id));
    }

    /** The clauses that match, in spec order. */
    public List<Clause> select(final Predicate<Clause> filter) {
        return clauses.stream().filter(filter).toList();
    }
}
