package org.mrconf.authoring;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.mrconf.files.UserFileException;
import org.mrconf.files.UserFiles;
import org.mrconf.replay.VectorFiles;

/**
 * {@code test-vectors/MANIFEST.sha256}: the SHA-256 of every file of every vector folder, one {@code HASH  PATH} line
 * each, sorted by path (the format of {@code sha256sum}, so {@code sha256sum -c} checks it too). A changed byte or a
 * file added or removed behind the manifest's back fails {@code vectors verify}.
 */
public final class VectorManifest {
    public static final String FILE = "MANIFEST.sha256";

    private VectorManifest() {}

    /** The manifest the files under {@code root} call for now. */
    static Map<String, String> compute(final Path root) throws IOException {
        return VectorFiles.hashesUnder(root);
    }

    public static void write(final Path root) throws IOException {
        final StringBuilder text = new StringBuilder();
        compute(root)
                .forEach((path, hash) ->
                        text.append(hash).append("  ").append(path).append('\n'));
        // Never through a link: a MANIFEST.sha256 that links out of the vector root is refused, not followed.
        UserFiles.writeUtf8(root.resolve(FILE), text);
    }

    /** One line per difference between the committed manifest and the files; empty when they agree. */
    public static List<String> verify(final Path root) throws IOException {
        final List<String> problems = new ArrayList<>();
        final Path file = root.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            problems.add(
                    file + ": missing (make it with `metaroce vectors record` or `vectors verify --update-manifest`)");
            return problems;
        }
        final Map<String, String> committed = new TreeMap<>();
        int line = 0;
        final String whole;
        try {
            whole = UserFiles.readUtf8Inside(root, file, UserFiles.Kind.MANIFEST);
        } catch (final UserFileException e) {
            problems.add(e.getMessage());
            return problems;
        }
        for (final String text : whole.split("\\r?\\n", -1)) {
            line++;
            if (text.isBlank()) {
                continue;
            }
            final String[] parts = text.split(" {2}", 2);
            if (parts.length != 2 || !parts[0].matches("[0-9a-f]{64}")) {
                problems.add(file + ": line " + line + ": not 'SHA256  PATH'");
                continue;
            }
            committed.put(parts[1], parts[0]);
        }
        final Map<String, String> actual = compute(root);
        committed.forEach((path, hash) -> {
            if (!actual.containsKey(path)) {
                problems.add(root.resolve(path) + ": listed in " + FILE + " but missing");
            } else if (!actual.get(path).equals(hash)) {
                problems.add(root.resolve(path) + ": changed since " + FILE + " was made (SHA-256 " + actual.get(path)
                        + ", manifest " + hash + ")");
            }
        });
        actual.keySet().stream()
                .filter(path -> !committed.containsKey(path))
                .forEach(path -> problems.add(root.resolve(path) + ": not listed in " + FILE));
        return problems;
    }
}
