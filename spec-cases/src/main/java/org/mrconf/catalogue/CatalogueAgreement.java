package org.mrconf.catalogue;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * Compares the spec document with the clause catalogue in both directions. The spec is what people
 * read and the catalogue is what tests bind to; any difference between them is a defect of one.
 */
@API(status = INTERNAL, since = "0.1")
public final class CatalogueAgreement {
    private CatalogueAgreement() {}

    /** Every disagreement, one readable line each; empty when they agree. */
    public static List<String> disagreements(final SpecDocument spec, final ClauseCatalogue catalogue) {
        final List<String> problems = new ArrayList<>();
        if (!spec.specVersion().equals(catalogue.specVersion())) {
            problems.add("spec version: document says " + spec.specVersion() + ", catalogue says "
                    + catalogue.specVersion());
        }
        final Map<String, SpecDocument.SpecClause> inSpec = new LinkedHashMap<>();
        for (final SpecDocument.SpecClause clause : spec.clauses()) {
            if (inSpec.put(clause.id(), clause) != null) {
                problems.add(clause.id() + ": appears twice in the document (line " + clause.line() + ")");
            }
            if (!clause.hasProvenanceNote()) {
                problems.add(clause.id() + ": " + clause.provenance() + " clause at line " + clause.line() + " has no "
                        + (clause.provenance() == Provenance.PUB ? "*Source:*" : "*Rationale:*") + " paragraph");
            }
        }
        for (final SpecDocument.SpecClause clause : inSpec.values()) {
            if (catalogue.find(clause.id()).isEmpty()) {
                problems.add(clause.id() + ": in the document (line " + clause.line() + ") but not in the catalogue");
            }
        }
        for (final Clause clause : catalogue.clauses()) {
            final SpecDocument.SpecClause written = inSpec.get(clause.id());
            if (written == null) {
                problems.add(clause.id() + ": in the catalogue but not in the document");
                continue;
            }
            compare(problems, clause.id(), "title", written.title(), clause.title());
            compare(problems, clause.id(), "level", written.level(), clause.level());
            compare(problems, clause.id(), "profile", written.profile(), clause.profile());
            compare(problems, clause.id(), "provenance", written.provenance(), clause.provenance());
        }
        return problems;
    }

    private static void compare(
            final List<String> problems,
            final String id,
            final String field,
            final Object inDocument,
            final Object inCatalogue) {
        if (!inDocument.equals(inCatalogue)) {
            problems.add(
                    id + ": " + field + " differs: document '" + inDocument + "', catalogue '" + inCatalogue + "'");
        }
    }
}
