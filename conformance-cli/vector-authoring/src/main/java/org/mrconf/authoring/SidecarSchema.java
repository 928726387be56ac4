package org.mrconf.authoring;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.mrconf.files.UserFileException;
import org.mrconf.files.UserFiles;

/**
 * The sidecar's JSON Schema ({@code test-vectors/schema/vector-1.schema.json}, which the build copies into the jar)
 * applied with the networknt validator: the one check that both {@code vectors verify} and the build's
 * {@code SidecarSchemaTest} use, so a committed sidecar that breaks the published format fails the build, naming the
 * file and the field. The suite's own reader ({@code SidecarReader}) checks the same rules, and more (clause ids,
 * names the sidecar uses), when a run reads the vector.
 */
public final class SidecarSchema {
    /** Where the schema sits on the classpath. */
    static final String RESOURCE = "/schemas/vector-1.schema.json";

    private final Schema schema;

    private SidecarSchema(final Schema schema) {
        this.schema = schema;
    }

    /** The schema in the jar; no schema is fetched from the network. */
    public static SidecarSchema bundled() {
        final String text;
        try (InputStream in = SidecarSchema.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the sidecar schema " + RESOURCE + " is not in the jar");
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new IllegalStateException("the sidecar schema " + RESOURCE + " cannot be read", e);
        }
        // Registered under its own $id, so that its $refs resolve to itself and never to the network.
        final String id;
        try {
            id = new ObjectMapper().readTree(text).path("$id").asText("");
        } catch (final IOException e) {
            throw new IllegalStateException("the sidecar schema " + RESOURCE + " is not JSON", e);
        }
        if (id.isEmpty()) {
            throw new IllegalStateException("the sidecar schema " + RESOURCE + " has no $id");
        }
        final SchemaRegistry registry =
                SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12, b -> b.schemas(Map.of(id, text)));
        return new SidecarSchema(registry.getSchema(SchemaLocation.of(id)));
    }

    /** One line per problem of {@code sidecar}, each naming the file and the field; empty when it is valid. */
    public List<String> check(final Path sidecar) {
        final String text;
        try {
            // A sidecar is never a link: the vector reader refuses one, and this check must not read past it.
            if (Files.isSymbolicLink(sidecar)) {
                return List.of(sidecar + ": is a link; a vector sidecar must be a regular file");
            }
            text = UserFiles.readUtf8(sidecar, UserFiles.Kind.SIDECAR);
        } catch (final UserFileException e) {
            return List.of(e.getMessage());
        }
        final List<Error> errors;
        try {
            errors = schema.validate(text, InputFormat.JSON);
        } catch (final RuntimeException e) {
            final String message = e.getMessage() == null ? e.toString() : e.getMessage();
            return List.of(sidecar + ": is not valid JSON: "
                    + message.lines().findFirst().orElse(""));
        }
        final List<String> problems = new ArrayList<>();
        for (final Error error : errors) {
            problems.add(sidecar + ": " + jsonPath(String.valueOf(error.getInstanceLocation())) + ": "
                    + error.getMessage() + " (schema vector-1)");
        }
        return problems;
    }

    /**
     * A JSON Pointer ({@code /expect/counters/0/delta}) in the JSON-path form the sidecar reader's messages use
     * ({@code $.expect.counters[0].delta}), so that both checks name a field the same way.
     */
    static String jsonPath(final String location) {
        if (!location.startsWith("/") && !location.isEmpty()) {
            return location; // already a path
        }
        final StringBuilder path = new StringBuilder("$");
        if (location.isEmpty()) {
            return path.toString();
        }
        for (final String raw : location.substring(1).split("/", -1)) {
            final String segment = raw.replace("~1", "/").replace("~0", "~");
            if (segment.matches("[0-9]+")) {
                path.append('[').append(segment).append(']');
            } else {
                path.append('.').append(segment);
            }
        }
        return path.toString();
    }
}
