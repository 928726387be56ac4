package org.mrconf.pcap;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Coverage-guided fuzzing of the capture reader and the frame decoder: any file gives frames or one
 * {@link CaptureFileException}, and any frame it yields decodes or fails with a
 * {@link FrameDecodeException}, never another exception. Seeds are small valid pcap and pcapng files.
 * Regression inputs: {@code src/test/resources/org/mrconf/pcap/PcapReaderFuzzTestInputs/}. The reader is pure Java,
 * so this runs everywhere, libpcap or not.
 */
class PcapReaderFuzzTest {
    @FuzzTest(maxDuration = "30s")
    void anyCaptureGivesFramesOrOneNamedError(final byte[] bytes) throws Exception {
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
}
