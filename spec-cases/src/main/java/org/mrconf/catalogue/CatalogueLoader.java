package org.mrconf.catalogue;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import org.mrconf.files.UserFileException;
import org.mrconf.files.UserFiles;

/**
 * Reads a clause catalogue from JSON and checks every field, so that a bad catalogue is reported as
 * one {@link CatalogueException} naming the file and field instead of a parser stack trace.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class CatalogueLoader {
    /** The catalogue of the spec version this build ships, on the classpath. */
    public static final String BUNDLED_RESOURCE = "/catalogue/metaroce-open-draft-0.15.json";

    private static final Pattern CLAUSE_ID = Pattern.compile("[1-9][0-9]*(\\.[1-9][0-9]*){2}");
    private static final String PURPOSE_PREFIX = "Ensure that the DUT";

    private final ObjectMapper mapper = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    /** The JSON shape of a catalogue file. */
    record CatalogueFile(
            String spec,
            String specVersion,
            String wireVersion,
            String document,
            List<Profile> profiles,
            List<Clause> clauses) {}

    /** Loads the catalogue bundled with this build. */
    public ClauseCatalogue loadBundled() throws CatalogueException {
        try (InputStream in = CatalogueLoader.class.getResourceAsStream(BUNDLED_RESOURCE)) {
            if (in == null) {
                throw new CatalogueException("classpath:" + BUNDLED_RESOURCE, "(file)", "not found in this build");
            }
            return parse("classpath:" + BUNDLED_RESOURCE, in);
        } catch (final IOException e) {
            throw new CatalogueException(
                    "classpath:" + BUNDLED_RESOURCE, "(file)", "cannot be read: " + e.getMessage(), e);
        }
    }

    /** Loads a catalogue file, e.g. one a user is editing. */
    public ClauseCatalogue load(final Path file) throws CatalogueException {
        try (InputStream in = UserFiles.open(file, UserFiles.Kind.SPEC)) {
            return parse(file.toString(), in);
        } catch (final UserFileException e) {
            throw new CatalogueException(file.toString(), "(file)", e.problem(), e);
        } catch (final IOException e) {
            throw new CatalogueException(file.toString(), "(file)", "cannot be read: " + e.getMessage(), e);
        }
    }

    private ClauseCatalogue parse(final String source, final InputStream in) throws CatalogueException {
        final CatalogueFile file;
        try {
            file = mapper.readValue(in, CatalogueFile.class);
        } catch (final JsonMappingException e) {
            throw new CatalogueException(source, jsonPath(e), rootMessage(e) + atLocation(e.getLocation()), e);
        } catch (final JsonParseException e) {
            throw new CatalogueException(
                    source, "(json)", "not valid JSON: " + e.getOriginalMessage() + atLocation(e.getLocation()), e);
        } catch (final IOException e) {
            throw new CatalogueException(source, "(file)", "cannot be read: " + e.getMessage(), e);
        }
        if (file == null) {
            throw new CatalogueException(source, "(file)", "is empty");
        }
        validate(source, file);
        return new ClauseCatalogue(file.spec(), file.specVersion(), file.wireVersion(), file.clauses());
    }

    private static void validate(final String source, final CatalogueFile file) throws CatalogueException {
        require(source, "spec", file.spec());
        require(source, "specVersion", file.specVersion());
        require(source, "wireVersion", file.wireVersion());
        if (file.clauses() == null || file.clauses().isEmpty()) {
            throw new CatalogueException(source, "clauses", "missing or empty");
        }
        final Set<String> seen = new HashSet<>();
        final List<Clause> clauses = new ArrayList<>(file.clauses());
        for (int i = 0; i < clauses.size(); i++) {
            final Clause clause = clauses.get(i);
            final String at = "clauses[" + i + "]";
            if (clause == null) {
                throw new CatalogueException(source, at, "is null");
            }
            require(source, at + ".id", clause.id());
            if (!CLAUSE_ID.matcher(clause.id()).matches()) {
                throw new CatalogueException(source, at + ".id", "'" + clause.id() + "' is not a clause id like 6.4.1");
            }
            if (!seen.add(clause.id())) {
                throw new CatalogueException(source, at + ".id", "duplicate clause id " + clause.id());
            }
            if (i > 0 && Clause.compareIds(clauses.get(i - 1).id(), clause.id()) >= 0) {
                throw new CatalogueException(
                        source,
                        at + ".id",
                        clause.id() + " is out of spec order after "
                                + clauses.get(i - 1).id());
            }
            require(source, at + ".title", clause.title());
            require(source, at + ".level", clause.level());
            require(source, at + ".profile", clause.profile());
            require(source, at + ".provenance", clause.provenance());
            require(source, at + ".purpose", clause.purpose());
            if (!clause.purpose().startsWith(PURPOSE_PREFIX + " ")
                    && !clause.purpose().startsWith(PURPOSE_PREFIX + ",")) {
                throw new CatalogueException(source, at + ".purpose", "must start with \"" + PURPOSE_PREFIX + "\"");
            }
        }
    }

    private static void require(final String source, final String field, final Object value) throws CatalogueException {
        if (value == null || (value instanceof String text && text.isBlank())) {
            throw new CatalogueException(source, field, "missing");
        }
    }

    private static String jsonPath(final JsonMappingException e) {
        final StringBuilder path = new StringBuilder();
        for (final JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                if (path.length() > 0) {
                    path.append('.');
                }
                path.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        return path.length() == 0 ? "(json)" : path.toString();
    }

    private static String rootMessage(final JsonMappingException e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        if (cause instanceof IllegalArgumentException) {
            return cause.getMessage();
        }
        return e.getOriginalMessage().lines().findFirst().orElse("invalid value");
    }

    private static String atLocation(final JsonLocation location) {
        if (location == null || location.getLineNr() < 0) {
            return "";
        }
        return " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
    }
}
