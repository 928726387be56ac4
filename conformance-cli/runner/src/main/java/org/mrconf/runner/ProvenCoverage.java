package org.mrconf.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;
import org.apiguardian.api.API;

/**
 * The clauses whose cases self-validation proves can fail: a deliberate defect of the reference that breaks the
 * clause makes them FAIL. It is a property of this build of the suite, not of any device, so it ships as a resource
 * ({@code proven-coverage.txt}, which the build test {@code SelfValidationTest} regenerates and checks).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ProvenCoverage {
    private static final String RESOURCE = "proven-coverage.txt";

    private ProvenCoverage() {}

    /** The proven clause ids of this build. */
    public static Set<String> clauses() {
        try (InputStream in = ProvenCoverage.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the suite's jar lacks " + RESOURCE);
            }
            final Set<String> clauses = new TreeSet<>();
            for (final String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    clauses.add(line.substring(0, line.indexOf(' ')));
                }
            }
            return Collections.unmodifiableSet(clauses);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
