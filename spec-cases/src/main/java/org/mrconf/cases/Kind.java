package org.mrconf.cases;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * The ETSI kind of a case's test purpose. A case without this annotation is {@link Purpose#VALID}. The reports show
 * the kind, and runs can be selected by it.
 */
@API(status = MAINTAINED, since = "0.1")
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Kind {
    Purpose value();

    /** What the tester's stimulus is. */
    enum Purpose {
        /** Valid behaviour: the stimulus is correct and the device must do what the clause says. */
        VALID,
        /** Invalid behaviour: the stimulus breaks the spec (bad CRC, bad key, ...) and the device must reject it as the
         * clause says. */
        INVALID,
        /** Inopportune behaviour: a well-formed stimulus at the wrong time (stale, duplicate, unexpected state). */
        INOPPORTUNE
    }
}
