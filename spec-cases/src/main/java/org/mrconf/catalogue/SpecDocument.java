package org.mrconf.catalogue;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import org.mrconf.files.UserFileException;
import org.mrconf.files.UserFiles;
import org.mrconf.markdown.MarkdownTables;

/**
 * The clauses of the spec document (spec/metaroce-open-draft.md) as its markdown states them, read by
 * the rules of spec section 2.2: a level-4 heading {@code #### <id> <title>} followed by a
 * {@code **Level:** .. · **Profile:** .. · **Provenance:** ..} line.
 */
@API(status = INTERNAL, since = "0.1")
public final class SpecDocument {
    private static final Pattern CLAUSE_HEADING = Pattern.compile("^#### (\\d+(?:\\.\\d+)+) (.+)$");
    private static final Pattern LEVEL_LINE = Pattern.compile(
            "^\\*\\*Level:\\*\\* (\\S+) · \\*\\*Profile:\\*\\* (\\S+) · \\*\\*Provenance:\\*\\* (\\S+)$");
    private static final Pattern SPEC_VERSION = Pattern.compile("\\S+");

    /**
     * A clause as written in the document.
     *
     * @param line           1-based line of its heading
     * @param hasProvenanceNote whether a {@code *Source:*} (PUB) or {@code *Rationale:*} (ENG) paragraph follows
     */
    public record SpecClause(
            String id,
            String title,
            Level level,
            Profile profile,
            Provenance provenance,
            int line,
            boolean hasProvenanceNote) {}

    private final String source;
    private final String specVersion;
    private final List<SpecClause> clauses;

    private SpecDocument(final String source, final String specVersion, final List<SpecClause> clauses) {
        this.source = source;
        this.specVersion = specVersion;
        this.clauses = List.copyOf(clauses);
    }

    /** Reads and parses the spec document. */
    public static SpecDocument read(final Path file) throws CatalogueException {
        try {
            return parse(
                    file.toString(),
                    UserFiles.readUtf8(file, UserFiles.Kind.SPEC).lines().toList());
        } catch (final UserFileException e) {
            throw new CatalogueException(file.toString(), "(file)", e.problem(), e);
        } catch (final IOException e) {
            throw new CatalogueException(file.toString(), "(file)", "cannot be read: " + e.getMessage(), e);
        }
    }

    /** Parses the lines of a spec document; {@code source} names it in errors. */
    public static SpecDocument parse(final String source, final List<String> lines) throws CatalogueException {
        final String specVersion = specVersion(lines);
        final List<SpecClause> clauses = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            final Matcher heading = CLAUSE_HEADING.matcher(lines.get(i));
            if (!heading.matches()) {
                continue;
            }
            final String at = "line " + (i + 1) + " (clause " + heading.group(1) + ")";
            if (i + 1 >= lines.size() || !lines.get(i + 1).startsWith("**Level:**")) {
                // A withdrawn clause keeps its heading without a level line (spec Annex B).
                continue;
            }
            final Matcher level = LEVEL_LINE.matcher(lines.get(i + 1));
            if (!level.matches()) {
                throw new CatalogueException(
                        source,
                        "line " + (i + 2),
                        "level line of clause " + heading.group(1)
                                + " does not read '**Level:** L · **Profile:** P · **Provenance:** PUB|ENG'");
            }
            final Provenance provenance = enumValue(source, at + " provenance", Provenance.class, level.group(3));
            clauses.add(new SpecClause(
                    heading.group(1),
                    heading.group(2).strip(),
                    enumValue(source, at + " level", Level.class, level.group(1)),
                    profile(source, at, level.group(2)),
                    provenance,
                    i + 1,
                    hasProvenanceNote(lines, i + 2, provenance)));
        }
        if (specVersion == null) {
            throw new CatalogueException(source, "front matter", "no '| Spec version | x.y |' row");
        }
        return new SpecDocument(source, specVersion, clauses);
    }

    /** The value of the first two-cell table row {@code | Spec version | x.y |} (the front matter's), or null. */
    private static String specVersion(final List<String> lines) {
        for (final MarkdownTables.Table table : MarkdownTables.parse(lines)) {
            for (final List<String> row : table.rows()) {
                if (row.size() == 2
                        && row.get(0).equals("Spec version")
                        && SPEC_VERSION.matcher(row.get(1)).matches()) {
                    return row.get(1);
                }
            }
        }
        return null;
    }

    private static boolean hasProvenanceNote(final List<String> lines, final int from, final Provenance provenance) {
        final String marker = provenance == Provenance.PUB ? "*Source:*" : "*Rationale:*";
        for (int i = from; i < lines.size() && !lines.get(i).startsWith("#"); i++) {
            if (lines.get(i).startsWith(marker)) {
                return true;
            }
        }
        return false;
    }

    private static Profile profile(final String source, final String at, final String name) throws CatalogueException {
        try {
            return Profile.fromSpecName(name);
        } catch (final IllegalArgumentException e) {
            throw new CatalogueException(source, at + " profile", e.getMessage(), e);
        }
    }

    private static <E extends Enum<E>> E enumValue(
            final String source, final String field, final Class<E> type, final String name) throws CatalogueException {
        try {
            return Enum.valueOf(type, name);
        } catch (final IllegalArgumentException e) {
            throw new CatalogueException(source, field, "'" + name + "' is not a " + type.getSimpleName(), e);
        }
    }

    /** The file it was read from. */
    public String source() {
        return source;
    }

    /** The spec version stated in the front matter. */
    public String specVersion() {
        return specVersion;
    }

    /** The clauses in document order. */
    public List<SpecClause> clauses() {
        return clauses;
    }
}
