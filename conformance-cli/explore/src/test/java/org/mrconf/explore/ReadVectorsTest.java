package org.mrconf.explore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mrconf.authoring.SidecarSchema;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.replay.TestVector;
import org.mrconf.replay.VectorCorpus;

/**
 * The shrinker drops and shortens READs as any message. The vectors of programs with READs, drawn for a device that claims every profile (the reference), are valid vectors:
 * the reader and the JSON Schema accept each. Seeds 1 to 120, and 512, whose only READ is an empty one
 * at offset 0 (its vector once had an empty set-up hex, which the reader refuses). No device is run.
 */
class ReadVectorsTest {
    @TempDir
    Path root;

    private static final int MTU = 4200;

    @Test
    void everyDrawnProgramWithAReadWritesAValidVector() throws Exception {
        final ClauseCatalogue catalogue = new CatalogueLoader().loadBundled();
        final ProgramGenerator generator;
        try (org.mrconf.devices.OpenDevice device = org.mrconf.devices.OpenDevice.open("reference")) {
            generator = new ProgramGenerator(
                    device.device().profile(),
                    Stimulus.maxPayload(org.mrconf.wire.Opcode.WRITE_WITH_IMMEDIATE, MTU, false));
        }
        int written = 0;
        boolean testerReads = false;
        boolean deviceReads = false;
        boolean refusedReads = false;
        for (final long seed : java.util.stream.LongStream.concat(
                        java.util.stream.LongStream.rangeClosed(1, 120), java.util.stream.LongStream.of(512))
                .toArray()) {
            final Program program = generator.draw(seed);
            if (program.messages().stream().noneMatch(m -> m.op() == Program.Op.READ)) {
                continue;
            }
            testerReads |= !program.deviceSends();
            deviceReads |= program.deviceSends();
            refusedReads |= program.messages().stream().anyMatch(m -> m.op() == Program.Op.READ && m.refused());
            final Stimulus stimulus = Stimulus.of(program, MTU, false);
            VectorFolder.write(
                    root.resolve("v" + seed),
                    "7.4.1",
                    "explore",
                    List.of("7.4.1"),
                    "a drawn program with a READ",
                    stimulus,
                    catalogue.specVersion(),
                    Trial.profiles(stimulus));
            final VectorCorpus corpus = VectorCorpus.discover(root.resolve("v" + seed), catalogue);
            assertThat(corpus.problems()).as("seed %d: %s", seed, program).isEmpty();
            final TestVector vector = corpus.vectors().get(0);
            assertThat(SidecarSchema.bundled().check(vector.folder().resolve(TestVector.SIDECAR)))
                    .as("seed %d", seed)
                    .isEmpty();
            assertThat(vector.sidecar().profiles()).contains("read");
            written++;
        }
        assertThat(written).isGreaterThan(50);
        assertThat(testerReads).isTrue();
        assertThat(deviceReads).isTrue();
        assertThat(refusedReads).isTrue();
    }

    @Test
    void theShrinkerDropsAndShortensReads() {
        final int segment = 4000;
        final Program program = new Program(
                3,
                true,
                1,
                1,
                0,
                List.of(
                        new Program.Message(Program.Op.WRITE, 0, 100, 0, 0, 0, 1),
                        new Program.Message(Program.Op.READ, 0, 3 * segment, 0, 0, 0, 2)),
                List.of());
        final List<Program> candidates = Shrinker.candidates(program, segment);
        assertThat(candidates)
                .anyMatch(c -> c.messages().size() == 1 && c.messages().get(0).op() == Program.Op.READ);
        assertThat(candidates)
                .anyMatch(c -> c.messages().size() == 2
                        && c.messages().get(1).op() == Program.Op.READ
                        && c.messages().get(1).length() == segment + 1);
        assertThat(candidates)
                .anyMatch(c -> c.messages().size() == 2 && c.messages().get(1).length() == 1);
    }
}
