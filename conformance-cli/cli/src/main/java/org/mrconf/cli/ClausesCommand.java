package org.mrconf.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.mrconf.catalogue.CatalogueAgreement;
import org.mrconf.catalogue.CatalogueException;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.Clause;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.catalogue.Level;
import org.mrconf.catalogue.Profile;
import org.mrconf.catalogue.Provenance;
import org.mrconf.catalogue.SpecDocument;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code metaroce clauses}: lists the clause catalogue, filtered, as a table, JSON or ids. */
@Command(
        name = "clauses",
        mixinStandardHelpOptions = true,
        description = "List the clauses of the MetaRoCE Open Draft catalogue.")
final class ClausesCommand implements Callable<Integer> {
    enum Format {
        table,
        json,
        ids
    }

    @Option(
            names = "--profile",
            split = ",",
            paramLabel = "PROFILE",
            converter = ProfileConverter.class,
            description =
                    "Only clauses of these profiles: core, ipv6, multipath, streams, read, immediate, congestion, long-haul.")
    Set<Profile> profiles;

    @Option(
            names = "--level",
            split = ",",
            paramLabel = "LEVEL",
            description = "Only clauses of these levels: ${COMPLETION-CANDIDATES}.")
    Set<Level> levels;

    @Option(names = "--provenance", paramLabel = "TAG", description = "Only PUB or ENG clauses.")
    Provenance provenance;

    @Option(
            names = "--format",
            defaultValue = "table",
            description = "Output: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Format format;

    @Option(
            names = "--catalogue",
            paramLabel = "FILE",
            description = "Read this catalogue file instead of the bundled one.")
    Path catalogueFile;

    @Option(
            names = "--check-spec",
            paramLabel = "SPEC.md",
            description = "Also check that this spec document and the catalogue agree; exit 1 if they do not.")
    Path specFile;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        final CatalogueLoader loader = new CatalogueLoader();
        final ClauseCatalogue catalogue = catalogueFile == null ? loader.loadBundled() : loader.load(catalogueFile);
        final List<Clause> selected = catalogue.select(c -> (profiles == null || profiles.contains(c.profile()))
                && (levels == null || levels.contains(c.level()))
                && (provenance == null || provenance == c.provenance()));
        final PrintWriter out = spec.commandLine().getOut();
        switch (format) {
            case json ->
                out.println(new ObjectMapper()
                        .enable(SerializationFeature.INDENT_OUTPUT)
                        .writeValueAsString(selected));
            case ids -> selected.forEach(c -> out.println(c.id()));
            case table -> printTable(out, catalogue, selected);
        }
        out.flush();
        return specFile == null ? 0 : checkSpec(catalogue);
    }

    private int checkSpec(final ClauseCatalogue catalogue) throws CatalogueException {
        final List<String> problems = CatalogueAgreement.disagreements(SpecDocument.read(specFile), catalogue);
        final PrintWriter err = spec.commandLine().getErr();
        problems.forEach(p -> err.println(specFile + ": " + p));
        err.println(problems.isEmpty() ? "spec and catalogue agree" : problems.size() + " disagreement(s)");
        err.flush();
        return problems.isEmpty() ? 0 : 1;
    }

    private static void printTable(
            final PrintWriter out, final ClauseCatalogue catalogue, final List<Clause> selected) {
        out.printf("%-8s %-6s %-10s %-4s %s%n", "CLAUSE", "LEVEL", "PROFILE", "SRC", "TITLE");
        final Map<Level, Integer> byLevel = new EnumMap<>(Level.class);
        for (final Clause clause : selected) {
            out.printf(
                    "%-8s %-6s %-10s %-4s %s%n",
                    clause.id(), clause.level(), clause.profile(), clause.provenance(), clause.title());
            byLevel.merge(clause.level(), 1, Integer::sum);
        }
        out.printf(
                "%n%d of %d clauses (MUST %d, SHOULD %d, MAY %d) in %s %s. Not Meta's specification.%n",
                selected.size(),
                catalogue.clauses().size(),
                byLevel.getOrDefault(Level.MUST, 0),
                byLevel.getOrDefault(Level.SHOULD, 0),
                byLevel.getOrDefault(Level.MAY, 0),
                catalogue.spec(),
                catalogue.specVersion());
    }

    /** Accepts the spec names of profiles, e.g. {@code long-haul}. */
    static final class ProfileConverter implements ITypeConverter<Profile> {
        @Override
        public Profile convert(final String value) {
            return Profile.fromSpecName(value);
        }
    }
}
