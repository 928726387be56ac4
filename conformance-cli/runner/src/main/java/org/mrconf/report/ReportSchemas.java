package org.mrconf.report;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.Validator;
import org.xml.sax.ErrorHandler;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * Checks report files against their schemas: report.json against the suite's own JSON Schema, ocptv.jsonl line by
 * line against the OCP Test and Validation 2.0 output schema, junit.xml against Surefire's XSD. Each problem comes
 * back as one line naming the file and the place in it. The schemas are bundled in the jar (copies of the shared
 * ones, checked equal in tests), and no schema is ever fetched from the network: every {@code $ref} resolves to a
 * file registered under its {@code $id}.
 */
public final class ReportSchemas {
    /** The {@code $id} of the OCPTV output root, the schema every line of ocptv.jsonl must meet. */
    public static final String OCPTV_ROOT_ID = "https://github.com/opencomputeproject/ocp-diag-core/output";

    private static final String OCPTV_FOLDER = "/schemas/ocptv/";
    private static final String JUNIT_XSD = "/schemas/junit/surefire-test-report.xsd";

    private final Schema report;
    private final Schema report10;
    private final Schema ocptv;
    private final javax.xml.validation.Schema junit;

    private ReportSchemas(final Schema report, final Schema ocptv, final javax.xml.validation.Schema junit) {
        this.report = report;
        this.report10 = reportSchema(JsonReport.SCHEMA_ID_1_0, resource(JsonReport.SCHEMA_RESOURCE_1_0));
        this.ocptv = ocptv;
        this.junit = junit;
    }

    /** The schemas bundled in the jar. */
    public static ReportSchemas bundled() {
        final Map<String, String> ocptvFiles = new LinkedHashMap<>();
        for (final String name : resource(OCPTV_FOLDER + "index.txt").split("\n")) {
            if (!name.isBlank()) {
                ocptvFiles.put(name.strip(), resource(OCPTV_FOLDER + name.strip()));
            }
        }
        return new ReportSchemas(
                reportSchema(resource(JsonReport.SCHEMA_RESOURCE)), ocptvSchema(ocptvFiles), xsd(resource(JUNIT_XSD)));
    }

    /**
     * The report schema from the jar, the OCPTV and JUnit schemas from the given folder and file (tests use the
     * project's shared copies, the reference the bundled ones are copied from).
     */
    public static ReportSchemas with(final Path ocptvFolder, final Path junitXsd) throws IOException {
        final Map<String, String> ocptvFiles = new LinkedHashMap<>();
        try (var files = Files.list(ocptvFolder)) {
            for (final Path f :
                    files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                ocptvFiles.put(f.getFileName().toString(), Files.readString(f, StandardCharsets.UTF_8));
            }
        }
        return new ReportSchemas(
                reportSchema(resource(JsonReport.SCHEMA_RESOURCE)),
                ocptvSchema(ocptvFiles),
                xsd(Files.readString(junitXsd, StandardCharsets.UTF_8)));
    }

    /**
     * Problems of a report.json text against the report schema its {@code $schema} names (format 1.0's for a 1.0
     * report, else the current one); empty when valid.
     */
    public List<String> checkReportJson(final String fileName, final String json) {
        return describe(fileName, "", names10(json) ? report10 : report, json);
    }

    private static boolean names10(final String json) {
        try {
            return JsonReport.SCHEMA_ID_1_0.equals(
                    JsonReport.MAPPER.readTree(json).path("$schema").asText(""));
        } catch (IOException | RuntimeException e) {
            return false; // not JSON: the current schema's check says so
        }
    }

    /** Problems of an ocptv.jsonl text, each line checked on its own; empty when valid. */
    public List<String> checkOcptv(final String fileName, final String jsonl) {
        final List<String> problems = new ArrayList<>();
        final String[] lines = jsonl.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].isEmpty() && i == lines.length - 1) {
                break; // the newline that ends the last line
            }
            problems.addAll(describe(fileName, ":" + (i + 1), ocptv, lines[i]));
        }
        if (lines.length == 0 || lines[0].isEmpty()) {
            problems.add(fileName + ": empty; an OCPTV stream starts with a schemaVersion line");
        }
        return problems;
    }

    /** Problems of a junit.xml text against Surefire's XSD; empty when valid. */
    public List<String> checkJunitXml(final String fileName, final String xml) {
        final List<String> problems = new ArrayList<>();
        final Validator validator = junit.newValidator();
        try {
            validator.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            validator.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            validator.setErrorHandler(new ErrorHandler() {
                @Override
                public void warning(final SAXParseException e) {}

                @Override
                public void error(final SAXParseException e) {
                    problems.add(line(fileName, e));
                }

                @Override
                public void fatalError(final SAXParseException e) {
                    problems.add(line(fileName, e));
                }
            });
            validator.validate(new StreamSource(new StringReader(xml)));
        } catch (SAXParseException e) {
            if (problems.isEmpty()) {
                problems.add(line(fileName, e));
            }
        } catch (SAXException e) {
            problems.add(fileName + ": " + e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return problems;
    }

    private static String line(final String fileName, final SAXParseException e) {
        return fileName + ":" + e.getLineNumber() + ":" + e.getColumnNumber() + ": " + e.getMessage();
    }

    private static List<String> describe(
            final String fileName, final String where, final Schema schema, final String json) {
        final List<Error> errors;
        try {
            errors = schema.validate(json, InputFormat.JSON);
        } catch (RuntimeException e) {
            // Not JSON at all: the parser's message names the place.
            return List.of(fileName + where + ": not JSON: " + firstLine(e.getMessage()));
        }
        final List<String> out = new ArrayList<>();
        for (final Error error : errors) {
            out.add(fileName + where + ": " + error.getInstanceLocation() + ": " + error.getMessage());
        }
        return out;
    }

    private static String firstLine(final String s) {
        return s == null ? "" : s.lines().findFirst().orElse("");
    }

    private static Schema reportSchema(final String text) {
        return reportSchema(JsonReport.SCHEMA_ID, text);
    }

    private static Schema reportSchema(final String id, final String text) {
        final SchemaRegistry registry =
                SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12, b -> b.schemas(Map.of(id, text)));
        return registry.getSchema(SchemaLocation.of(id));
    }

    /** Registers every OCPTV file under its own {@code $id}: file names do not match the ids' last segments. */
    private static Schema ocptvSchema(final Map<String, String> files) {
        final Map<String, String> byId = new LinkedHashMap<>();
        for (final Map.Entry<String, String> file : files.entrySet()) {
            try {
                final String id =
                        JsonReport.MAPPER.readTree(file.getValue()).path("$id").asText("");
                if (id.isEmpty()) {
                    throw new IllegalStateException("OCPTV schema " + file.getKey() + " has no $id");
                }
                byId.put(id, file.getValue());
            } catch (IOException e) {
                throw new IllegalStateException("OCPTV schema " + file.getKey() + " is not JSON", e);
            }
        }
        if (!byId.containsKey(OCPTV_ROOT_ID)) {
            throw new IllegalStateException("no OCPTV schema has $id " + OCPTV_ROOT_ID);
        }
        final SchemaRegistry registry =
                SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12, b -> b.schemas(byId));
        return registry.getSchema(SchemaLocation.of(OCPTV_ROOT_ID));
    }

    private static javax.xml.validation.Schema xsd(final String text) {
        try {
            final SchemaFactory factory = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
            factory.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            factory.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            return factory.newSchema(new StreamSource(new StringReader(text)));
        } catch (SAXException e) {
            throw new IllegalStateException("the JUnit XML schema does not load: " + e.getMessage(), e);
        }
    }

    private static String resource(final String name) {
        try (InputStream in = ReportSchemas.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name + " (a broken build)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
