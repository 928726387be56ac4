package org.mrconf.runner;

/** The selection matched no case: bad input (exit code 2), since an empty run proves nothing. */
public final class NoCasesSelected extends Exception {
    private static final long serialVersionUID = 1L;

    public NoCasesSelected(final String message) {
        super(message);
    }
}
