package org.mrconf.dut;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A control operation failed: the agent answered with an error (code, message and, for bad arguments, the field
 * at fault), or the client found the channel or the response broken. Thrown by every {@link DutControl} method;
 * a test usually lets it fail the case, and checks {@link #code()} when an error is the expected outcome.
 */
@API(status = MAINTAINED, since = "0.1")
public final class DutControlException extends Exception {
    private static final long serialVersionUID = 1L;

    private final DutErrorCode code;
    private final String op;
    private final String detail;
    private final String field;

    /**
     * @param code   the protocol or client-side error code
     * @param op     the operation that failed, e.g. {@code post_write}
     * @param detail the agent's message or the client's explanation
     * @param field  the request or response field at fault as a path ({@code args.length}), or {@code null}
     * @param cause  the underlying exception, or {@code null}
     */
    public DutControlException(DutErrorCode code, String op, String detail, String field, Throwable cause) {
        super(format(code, op, detail, field), cause);
        this.code = Objects.requireNonNull(code, "code");
        this.op = Objects.requireNonNull(op, "op");
        this.detail = Objects.requireNonNull(detail, "detail");
        this.field = field;
    }

    public DutControlException(DutErrorCode code, String op, String detail, String field) {
        this(code, op, detail, field, null);
    }

    private static String format(DutErrorCode code, String op, String detail, String field) {
        String name = code.isFromAgent() ? code.wireName() : code.name().toLowerCase(Locale.ROOT);
        return op + ": " + name + ": " + detail + (field != null ? " (field " + field + ")" : "");
    }

    public DutErrorCode code() {
        return code;
    }

    /** The operation that failed, as the protocol names it. */
    public String op() {
        return op;
    }

    /** The agent's message, or the client's explanation of a client-side failure. */
    public String detail() {
        return detail;
    }

    /**
     * The field at fault: for agent errors the request field the agent named ({@code args.length}), for
     * {@link DutErrorCode#MALFORMED_RESPONSE} the response field ({@code result.entropy[1]}).
     */
    public Optional<String> field() {
        return Optional.ofNullable(field);
    }
}
