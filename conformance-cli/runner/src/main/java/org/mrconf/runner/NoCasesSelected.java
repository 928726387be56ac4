package org.mrconf.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** The selection matched no case: bad input (exit code 2), since an empty run proves nothing. */
@API(status = EXPERIMENTAL, since = "0.1")
public final class NoCasesSelected extends Exception {
    private static final long serialVersionUID = 1L;

    public NoCasesSelected(final String message) {
        super(message);
    }
}
