package org.mrconf.verdict;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apiguardian.api.API;

/**
 * The bytes a test vector of a run had when it ran, so a report pins exactly what was replayed.
 *
 * @param id     the vector's id (its folder under the vector root), as in its result's {@code vector:<id>}
 * @param sha256 the vector's SHA-256: over its lines of {@code MANIFEST.sha256} ({@code HASH  PATH\n}, path order)
 * @param files  each of its files' SHA-256 by its path under the vector root, exactly as {@code MANIFEST.sha256}
 *     lists it; empty when the report that was read predates the field
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record VectorDigest(String id, String sha256, SortedMap<String, String> files) {
    public VectorDigest {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(sha256, "sha256");
        files = Collections.unmodifiableSortedMap(new TreeMap<>(files));
    }
}
