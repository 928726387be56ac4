package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;

/**
 * A device declaration or target that cannot be used. The message names the file (or argument) and the JSON field, e.g.
 * {@code lab/nic.json: parameters.timers.minRtoUs: must be 1 to 60000000, found 0}, so the user can fix it without
 * a stack trace; the CLI maps it to exit code 2.
 */
@API(status = MAINTAINED, since = "0.1")
public final class DeclarationException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final String field;
    private final String problem;

    public DeclarationException(String source, String field, String problem) {
        this(source, field, problem, null);
    }

    public DeclarationException(String source, String field, String problem, Throwable cause) {
        super(source + ": " + field + ": " + problem, cause);
        this.source = source;
        this.field = field;
        this.problem = problem;
    }

    /** The file, resource or command-line argument that holds the problem. */
    public String source() {
        return source;
    }

    /** The JSON path of the field at fault, or {@code (file)}, {@code (json)} for whole-file problems. */
    public String field() {
        return field;
    }

    /** What is wrong, in words. */
    public String problem() {
        return problem;
    }
}
