package org.mrconf.cases;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * Binds a conformance case to a clause of the MetaRoCE Open Draft that it verifies. A case may verify
 * several clauses; each must exist in the clause catalogue (a test checks that).
 */
@API(status = MAINTAINED, since = "0.1")
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
@Repeatable(Verifies.List.class)
public @interface Verifies {
    /** The clause id, e.g. {@code "7.1.1"}. */
    String value();

    /** The container of repeated {@link Verifies} annotations. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.METHOD, ElementType.TYPE})
    @interface List {
        Verifies[] value();
    }
}
