package org.mrconf.cases;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Binds a conformance case to a clause of the MetaRoCE Open Draft that it verifies. A case may verify
 * several clauses; each must exist in the clause catalogue (a test checks that).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
@Repeatable(Clause.List.class)
public @interface Clause {
    /** The clause id, e.g. {@code "7.1.1"}. */
    String value();

    /** The container of repeated {@link Clause} annotations. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.METHOD, ElementType.TYPE})
    @interface List {
        Clause[] value();
    }
}
