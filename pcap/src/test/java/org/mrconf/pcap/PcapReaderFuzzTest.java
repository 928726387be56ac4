package org.mrconf.pcap;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * Coverage-guided fuzzing of the capture reader and the frame decoder: any file gives frames or one
 * {@link CaptureFileException}, and any frame it yields decodes or fails with a
 * {@link FrameDecodeException}, never another exception. Seeds are small valid pcap and pcapng files.
 * Regression inputs: {@code src/test/resources/org/mrconf/pcap/PcapReaderFuzzTestInputs/}. Needs libpcap;
 * without it the target is skipped with that reason.
 */
class PcapReaderFuzzTest {
    @FuzzTest(maxDuration = "30s")
    void anyCaptureGivesFramesOrOneNamedError(final byte[] bytes) throws Exception {
        Assumptions.assumeTrue(hasLibpcap(), "libpcap is not installed");
        final Path file = Files.createTempFile("fuzz-capture", ".pcap");
        try {
            Files.write(file, bytes);
            try {
                for (final CapturedFrame frame : PcapReader.readAll(file)) {
                    try {
                        assertThat(FrameCodec.decode(frame.bytes())).isNotNull();
                    } catch (final FrameDecodeException e) {
                        assertThat(e.getMessage()).isNotBlank();
                    }
                }
            } catch (final CaptureFileException e) {
                assertThat(e.getMessage()).contains(file.toString());
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static boolean hasLibpcap() {
        try {
            return Libpcap.version() != null;
        } catch (final PcapUnavailableException e) {
            return false;
        }
    }
}
