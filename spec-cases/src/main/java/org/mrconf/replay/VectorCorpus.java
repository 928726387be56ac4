package org.mrconf.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.catalogue.Profile;
import org.mrconf.pcap.CaptureFileException;
import org.mrconf.pcap.PcapReader;

/**
 * Every vector folder under a root (a folder holding a {@code vector.json}), read and checked: the sidecar, the clause
 * ids against the catalogue, the spec version, the names the sidecar uses, and that the captures open as Ethernet
 * pcap. A broken vector is a {@link VectorException} in {@link #problems()}; it never stops the others.
 *
 * @param root     the folder searched
 * @param vectors  the usable vectors, by id
 * @param problems what is wrong with the others, one per vector
 */
public record VectorCorpus(Path root, List<TestVector> vectors, List<VectorException> problems) {
    /** Folders searched at most, so a mistaken root (a home directory) cannot stall a run. */
    static final int MAX_FOLDERS = 100_000;

    public VectorCorpus {
        vectors = List.copyOf(vectors);
        problems = List.copyOf(problems);
    }

    /** Reads every vector under {@code root}; an absent root is an empty corpus. */
    public static VectorCorpus discover(final Path root, final ClauseCatalogue catalogue) throws IOException {
        final List<TestVector> vectors = new ArrayList<>();
        final List<VectorException> problems = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return new VectorCorpus(root, vectors, problems);
        }
        final List<Path> sidecars;
        try (Stream<Path> files = Files.walk(root)) {
            sidecars = files.limit(MAX_FOLDERS)
                    .filter(p -> p.getFileName().toString().equals(TestVector.SIDECAR))
                    .sorted()
                    .toList();
        }
        final SidecarReader reader = new SidecarReader();
        for (final Path sidecarFile : sidecars) {
            try {
                vectors.add(check(root, sidecarFile, reader.read(sidecarFile), catalogue));
            } catch (final VectorException e) {
                problems.add(e);
            }
        }
        vectors.sort(Comparator.comparing(TestVector::id));
        return new VectorCorpus(root, vectors, problems);
    }

    private static TestVector check(
            final Path root, final Path sidecarFile, final Sidecar sidecar, final ClauseCatalogue catalogue)
            throws VectorException {
        final Path folder = sidecarFile.getParent();
        final String expectedId = root.relativize(folder).toString().replace('\\', '/');
        if (!sidecar.id().equals(expectedId)) {
            throw new VectorException(
                    sidecarFile,
                    "$.id",
                    "is '" + sidecar.id() + "'; a vector's id is its folder's " + "path under " + root + ": '"
                            + expectedId + "'");
        }
        if (!sidecar.specVersion().equals(catalogue.specVersion())) {
            throw new VectorException(
                    sidecarFile,
                    "$.specVersion",
                    "is " + sidecar.specVersion() + "; this suite " + "implements Open Draft " + catalogue.specVersion()
                            + " (update the vector to it)");
        }
        for (final String clause : sidecar.clauses()) {
            if (catalogue.find(clause).isEmpty()) {
                throw new VectorException(
                        sidecarFile,
                        "$.clauses",
                        "names clause " + clause + ", which Open Draft " + catalogue.specVersion() + " does not have");
            }
        }
        for (final String profile : sidecar.profiles()) {
            knownProfile(sidecarFile, "$.profiles", profile);
        }
        for (final String profile : sidecar.unclaimedProfiles()) {
            knownProfile(sidecarFile, "$.unclaimedProfiles", profile);
        }
        final Set<String> regions =
                sidecar.setup().regions().stream().map(Sidecar.Region::name).collect(Collectors.toSet());
        if (regions.size() != sidecar.setup().regions().size()) {
            throw new VectorException(sidecarFile, "$.setup.regions", "names a region twice");
        }
        for (final Sidecar.Receive receive : sidecar.setup().receives()) {
            known(sidecarFile, "$.setup.receives[].region", receive.region(), regions);
        }
        for (final String name : sidecar.placeholders().regions().keySet()) {
            known(sidecarFile, "$.placeholders.regions", name, regions);
        }
        for (final Sidecar.RegionContent content : sidecar.expect().regions()) {
            known(sidecarFile, "$.expect.regions[].region", content.region(), regions);
        }
        final Path stimulus = folder.resolve(TestVector.STIMULUS);
        final int frames = readable(stimulus);
        for (final int frame : sidecar.udpChecksums().keySet()) {
            if (frame >= frames) {
                throw new VectorException(
                        sidecarFile,
                        "$.udpChecksums",
                        "names frame " + frame + ", and " + TestVector.STIMULUS + " holds " + frames
                                + " frames (counted from 0)");
            }
        }
        final Path expected = folder.resolve(TestVector.EXPECTED);
        final Optional<Path> expectedCapture =
                Files.exists(expected, LinkOption.NOFOLLOW_LINKS) ? Optional.of(expected) : Optional.empty();
        if (expectedCapture.isPresent()) {
            readable(expected);
        }
        return new TestVector(folder, sidecar, stimulus, expectedCapture, digest(root, folder, sidecarFile));
    }

    private static void known(final Path file, final String field, final String name, final Set<String> regions)
            throws VectorException {
        if (!regions.contains(name)) {
            throw new VectorException(
                    file,
                    field,
                    "names region '" + name + "', which $.setup.regions does not " + "define (unknown placeholder)");
        }
    }

    /** Reads every record of {@code capture}; returns how many there are. */
    private static int readable(final Path capture) throws VectorException {
        if (!Files.isRegularFile(capture, LinkOption.NOFOLLOW_LINKS)) {
            throw new VectorException(capture, "", "is missing or not a regular file");
        }
        int records = 0;
        try (PcapReader reader = PcapReader.open(capture)) {
            while (reader.next() != null) {
                records++; // every record must be readable
            }
            return records;
        } catch (final CaptureFileException e) {
            throw new VectorException(capture, "", e.getMessage(), e);
        }
    }

    private static String digest(final Path root, final Path folder, final Path sidecar) throws VectorException {
        try {
            return VectorFiles.digest(VectorFiles.hashesOf(root, folder));
        } catch (final IOException e) {
            throw new VectorException(sidecar, "", "cannot be read: " + e.getMessage(), e);
        }
    }

    private static void knownProfile(final Path sidecarFile, final String field, final String profile)
            throws VectorException {
        try {
            Profile.fromSpecName(profile);
        } catch (final IllegalArgumentException e) {
            throw new VectorException(
                    sidecarFile, field, "names profile '" + profile + "', which the spec does not define");
        }
    }
}
