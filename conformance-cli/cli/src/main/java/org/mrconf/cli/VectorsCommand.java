package org.mrconf.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import org.mrconf.authoring.ReferenceReplay;
import org.mrconf.authoring.Scenario;
import org.mrconf.authoring.Scenarios;
import org.mrconf.authoring.SidecarSchema;
import org.mrconf.authoring.VectorManifest;
import org.mrconf.authoring.VectorWriter;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.embedded.EmbeddedReferenceDut;
import org.mrconf.pcap.CapturedFrame;
import org.mrconf.pcap.PcapReader;
import org.mrconf.replay.Sidecar;
import org.mrconf.replay.TestVector;
import org.mrconf.replay.VectorCorpus;
import org.mrconf.replay.VectorException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code metaroce vectors}: scaffold, record, verify and list the test vectors. */
@Command(
        name = "vectors",
        mixinStandardHelpOptions = true,
        description =
                "Test vectors: a stimulus pcap and a JSON sidecar per folder under test-vectors/ (no Java needed).",
        subcommands = {
            VectorsCommand.New.class,
            VectorsCommand.Record.class,
            VectorsCommand.Verify.class,
            VectorsCommand.ListVectors.class
        })
public final class VectorsCommand implements Runnable {
    static final String DEFAULT_ROOT = "test-vectors";

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** {@code vectors new CLAUSE}: a folder with a sidecar to fill in. */
    @Command(name = "new", mixinStandardHelpOptions = true, description = "Scaffold a vector folder for a clause.")
    static final class New implements Callable<Integer> {
        @Parameters(paramLabel = "CLAUSE", description = "The clause id, e.g. 7.1.1.")
        String clause;

        @Option(names = "--name", defaultValue = "new-vector", description = "The folder name under the clause.")
        String name;

        @Option(names = "--root", defaultValue = DEFAULT_ROOT, description = "The vector root.")
        Path root;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            final ClauseCatalogue catalogue = new CatalogueLoader().loadBundled();
            if (catalogue.find(clause).isEmpty()) {
                spec.commandLine()
                        .getErr()
                        .println("metaroce: vectors new: clause " + clause + " is not in Open Draft "
                                + catalogue.specVersion() + " (see `metaroce clauses`)");
                return 2;
            }
            if (!name.matches("[a-z0-9][a-z0-9-]{0,63}")) {
                spec.commandLine()
                        .getErr()
                        .println("metaroce: vectors new: --name must be lower-case letters, digits" + " and dashes: "
                                + name);
                return 2;
            }
            final Path folder = root.resolve(clause).resolve(name);
            if (Files.exists(folder)) {
                spec.commandLine().getErr().println("metaroce: vectors new: " + folder + " exists already");
                return 2;
            }
            Files.createDirectories(folder);
            final ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
            final ObjectNode sidecar = mapper.createObjectNode();
            sidecar.put("$schema", "../../schema/vector-1.schema.json");
            sidecar.put("id", clause + "/" + name);
            sidecar.put("specVersion", catalogue.specVersion());
            sidecar.putArray("clauses").add(clause);
            sidecar.put("kind", "valid");
            sidecar.put("purpose", catalogue.find(clause).get().purpose());
            sidecar.putArray("profiles")
                    .add(catalogue.find(clause).get().profile().specName());
            final ObjectNode setup = sidecar.putObject("setup").put("paths", 1).put("streams", 1);
            setup.putArray("regions")
                    .addObject()
                    .put("name", "target")
                    .put("length", 65_536)
                    .putArray("access")
                    .add("LOCAL_WRITE")
                    .add("REMOTE_WRITE")
                    .add("REMOTE_READ");
            final ObjectNode placeholders = sidecar.putObject("placeholders")
                    .put("connection", "0x00010001")
                    .put("psnBase", 0);
            placeholders
                    .putObject("regions")
                    .putObject("target")
                    .put("address", "0x70000000")
                    .put("key", "0x00000077");
            sidecar.put("pacing", "fast");
            sidecar.putObject("expect")
                    .putArray("responses")
                    .addObject()
                    .put("opcode", "ACK")
                    .put("atLeast", 1);
            Files.writeString(
                    folder.resolve(TestVector.SIDECAR),
                    mapper.writeValueAsString(sidecar) + "\n",
                    StandardCharsets.UTF_8);
            final PrintWriter out = spec.commandLine().getOut();
            out.println(
                    "Made " + folder + "/vector.json. Next: add " + TestVector.STIMULUS + " (Ethernet/IP/UDP frames"
                            + " to port 4796, recorded with the placeholders in the sidecar), set the expectations, then run"
                            + " `metaroce vectors verify` and `metaroce vectors verify --update-manifest`. See test-vectors/README.md.");
            out.flush();
            return 0;
        }
    }

    /** {@code vectors record}: turns the built-in tester scenarios into vectors, checked against the reference. */
    @Command(
            name = "record",
            mixinStandardHelpOptions = true,
            description = {
                "Write the built-in tester scenarios as vector folders and rewrite the manifest.",
                "Each is replayed against the embedded reference, which must meet the scenario's expectations (they"
                        + " come from the spec)."
            })
    static final class Record implements Callable<Integer> {
        @Parameters(arity = "0..*", paramLabel = "ID-PATTERN", description = "Only scenarios whose id matches (regex).")
        List<String> patterns = new ArrayList<>();

        @Option(names = "--root", defaultValue = DEFAULT_ROOT, description = "The vector root.")
        Path root;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            final PrintWriter out = spec.commandLine().getOut();
            final ClauseCatalogue catalogue = new CatalogueLoader().loadBundled();
            final VectorWriter writer = new VectorWriter();
            int failures = 0;
            for (final Scenario scenario : Scenarios.all()) {
                if (!patterns.isEmpty()
                        && patterns.stream()
                                .noneMatch(p ->
                                        Pattern.compile(p).matcher(scenario.id).find())) {
                    continue;
                }
                writer.write(root, scenario, catalogue.specVersion());
                final VectorCorpus one = VectorCorpus.discover(root, catalogue);
                final TestVector vector = one.vectors().stream()
                        .filter(v -> v.id().equals(scenario.id))
                        .findFirst()
                        .orElseThrow(() -> new IllegalStateException(
                                "recorded " + scenario.id + " but cannot read it: " + one.problems()));
                try (EmbeddedReferenceDut reference =
                        EmbeddedReferenceDut.start(org.mrconf.defect.Defects.of(), scenario.configuration)) {
                    final java.util.Optional<String> unmet = ReferenceReplay.unmet(reference, vector);
                    if (unmet.isPresent()) {
                        throw new AssertionError(
                                "its " + scenario.configuration + " configuration cannot replay it: " + unmet.get());
                    }
                    ReferenceReplay.replay(reference, vector);
                    out.println("recorded " + scenario.id);
                } catch (final AssertionError e) {
                    failures++;
                    out.println("NOT recorded " + scenario.id + ": the reference does not meet it: " + e.getMessage());
                    deleteTree(vector.folder());
                }
                out.flush();
            }
            VectorManifest.write(root);
            out.println("wrote " + root.resolve(VectorManifest.FILE));
            out.flush();
            return failures == 0 ? 0 : 1;
        }
    }

    /** {@code vectors verify}: every vector readable, every pcap whole with good checksums, the manifest in step. */
    @Command(
            name = "verify",
            mixinStandardHelpOptions = true,
            description = {
                "Check every vector; exit 2 with one line per problem.",
                "It checks the sidecar against its JSON Schema and format, clause ids, spec version, every pcap"
                        + " readable with good IP and UDP checksums, and every file against MANIFEST.sha256."
            })
    static final class Verify implements Callable<Integer> {
        @Option(names = "--root", defaultValue = DEFAULT_ROOT, description = "The vector root.")
        Path root;

        @Option(names = "--update-manifest", description = "Rewrite MANIFEST.sha256 from the files (after a review).")
        boolean updateManifest;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            final PrintWriter out = spec.commandLine().getOut();
            final ClauseCatalogue catalogue = new CatalogueLoader().loadBundled();
            final VectorCorpus corpus = VectorCorpus.discover(root, catalogue);
            final List<String> problems = new ArrayList<>();
            corpus.problems().forEach(p -> problems.add(p.getMessage()));
            final SidecarSchema schema = SidecarSchema.bundled();
            for (final Path sidecar : sidecars(root)) {
                // The reader has said a sidecar that is a link, a FIFO or a device is not a regular file: nothing
                // more is read of it (a link would lead the schema check to the target's content).
                if (Files.isRegularFile(sidecar, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    problems.addAll(schema.check(sidecar));
                }
            }
            for (final TestVector vector : corpus.vectors()) {
                // Only the DUT sends in a vector whose steps send no frame: its capture may be empty.
                final int frames = checksums(
                        vector.stimulus(),
                        problems,
                        vector.sidecar().steps().stream().noneMatch(s -> s instanceof Sidecar.Send));
                vector.expected().ifPresent(expected -> checksums(expected, problems));
                checkSteps(vector, frames, problems);
            }
            if (updateManifest) {
                VectorManifest.write(root);
            }
            problems.addAll(VectorManifest.verify(root));
            problems.forEach(p -> spec.commandLine().getErr().println("metaroce: vectors verify: " + p));
            out.printf("%d vectors, %d problems%n", corpus.vectors().size(), problems.size());
            out.flush();
            return problems.isEmpty() ? 0 : 2;
        }

        /** Every sidecar under the root, the ones the reader refused included. */
        private static List<Path> sidecars(final Path root) throws java.io.IOException {
            if (!Files.isDirectory(root)) {
                return List.of();
            }
            try (var files = Files.walk(root)) {
                return files.filter(p -> p.getFileName().toString().equals(TestVector.SIDECAR))
                        .sorted()
                        .toList();
            }
        }

        /**
         * A vector with steps sends its frames by index: each index names a frame of the capture, and each frame is
         * sent by some step (a frame never sent is a sign the sidecar and the capture drifted apart).
         */
        private static void checkSteps(final TestVector vector, final int frames, final List<String> problems) {
            final List<Sidecar.Step> steps = vector.sidecar().steps();
            if (steps.isEmpty() || frames < 0) {
                return;
            }
            final java.util.Set<Integer> sent = new java.util.HashSet<>();
            for (int i = 0; i < steps.size(); i++) {
                if (steps.get(i) instanceof Sidecar.Send send) {
                    for (final int frame : send.frames()) {
                        if (frame >= frames) {
                            problems.add(vector.folder().resolve(TestVector.SIDECAR) + ": $.steps[" + i
                                    + "].send.frames names frame " + frame + ", " + vector.stimulus() + " holds "
                                    + frames);
                        }
                        sent.add(frame);
                    }
                }
            }
            for (int frame = 0; frame < frames; frame++) {
                if (!sent.contains(frame)) {
                    problems.add(vector.folder().resolve(TestVector.SIDECAR) + ": $.steps: no step sends frame " + frame
                            + " of " + vector.stimulus());
                }
            }
        }

        /** Checks every frame's checksums; returns how many frames the capture holds, or -1 if it cannot be read. */
        private static int checksums(final Path capture, final List<String> problems) {
            return checksums(capture, problems, false);
        }

        private static int checksums(final Path capture, final List<String> problems, final boolean mayBeEmpty) {
            try (PcapReader reader = PcapReader.open(capture)) {
                int frames = 0;
                for (CapturedFrame frame = reader.next(); frame != null; frame = reader.next()) {
                    frames++;
                    if (!frame.decode().checksumsOk()) {
                        problems.add(capture + ": frame " + frames + " has a wrong IP or UDP checksum");
                    }
                }
                if (frames == 0 && !mayBeEmpty) {
                    problems.add(capture + ": holds no frame");
                }
                return frames;
            } catch (final Exception e) {
                problems.add(capture + ": " + e.getMessage());
                return -1;
            }
        }
    }

    /** {@code vectors list}: the vectors, filtered. */
    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = "List the vectors, by clause, profile and kind.")
    static final class ListVectors implements Callable<Integer> {
        @Option(names = "--root", defaultValue = DEFAULT_ROOT, description = "The vector root.")
        Path root;

        @Option(names = "--clause", description = "Clause id or prefix, e.g. 7.1 or 6.4.2.")
        String clause;

        @Option(names = "--profile", description = "Only vectors that need this profile.")
        String profile;

        @Option(names = "--kind", description = "valid, invalid or inopportune.")
        String kind;

        @Spec
        CommandSpec spec;

        private static final java.util.Set<String> KINDS = java.util.Set.of("valid", "invalid", "inopportune");

        @Override
        public Integer call() throws Exception {
            final PrintWriter err = spec.commandLine().getErr();
            if (kind != null && !KINDS.contains(kind)) {
                err.println("metaroce: vectors list: --kind: '" + kind + "' is not a kind; give valid, invalid or"
                        + " inopportune");
                return MetaroceCommand.EXIT_BAD_INPUT;
            }
            if (profile != null) {
                try {
                    org.mrconf.catalogue.Profile.fromSpecName(profile);
                } catch (final IllegalArgumentException e) {
                    err.println("metaroce: vectors list: --profile: '" + profile + "' is not a profile; give one of "
                            + org.mrconf.catalogue.Profile.allSpecNames());
                    return MetaroceCommand.EXIT_BAD_INPUT;
                }
            }
            if (Files.exists(root) && !Files.isDirectory(root)) {
                err.println("metaroce: vectors list: --root: " + root + " is not a folder; give the vector root");
                return MetaroceCommand.EXIT_BAD_INPUT;
            }
            final PrintWriter out = spec.commandLine().getOut();
            final VectorCorpus corpus = VectorCorpus.discover(root, new CatalogueLoader().loadBundled());
            int shown = 0;
            for (final TestVector vector : corpus.vectors()) {
                final var sidecar = vector.sidecar();
                if ((clause == null
                                || sidecar.clauses().stream()
                                        .anyMatch(c -> c.equals(clause) || c.startsWith(clause + ".")))
                        && (profile == null || sidecar.profiles().contains(profile))
                        && (kind == null || sidecar.kind().equals(kind))) {
                    out.printf(
                            "%-50s %-11s %-20s %s%n",
                            vector.id(),
                            sidecar.kind(),
                            String.join(" ", sidecar.clauses()),
                            vector.sha256().substring(0, 12));
                    shown++;
                }
            }
            for (final VectorException problem : corpus.problems()) {
                spec.commandLine().getErr().println("metaroce: vectors list: " + problem.getMessage());
            }
            out.printf("%d of %d vectors%n", shown, corpus.vectors().size());
            out.flush();
            return corpus.problems().isEmpty() ? 0 : 2;
        }
    }

    private static void deleteTree(final Path root) throws java.io.IOException {
        try (var paths = Files.walk(root)) {
            for (final Path path :
                    paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
