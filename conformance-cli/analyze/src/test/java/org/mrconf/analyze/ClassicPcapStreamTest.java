package org.mrconf.analyze;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mrconf.pcap.CaptureFileException;
import org.mrconf.pcap.CapturedFrame;
import org.mrconf.pcap.PcapReader;

class ClassicPcapStreamTest {
    @TempDir
    Path dir;

    @Test
    void shouldReadTheSameRecordsAsLibpcap() throws Exception {
        final Path capture = dir.resolve("synthetic.pcap");
        SyntheticCapture.write(capture, 3_000, 8, 4);
        try (PcapReader reader = PcapReader.open(capture);
                ClassicPcapStream stream = ClassicPcapStream.open(capture)) {
            assertThat(stream).isNotNull();
            int count = 0;
            for (CapturedFrame frame = reader.next(); frame != null; frame = reader.next()) {
                final ClassicPcapStream.Record record = stream.next();
                assertThat(record).as("record %d", count).isNotNull();
                assertThat(Arrays.equals(record.bytes(), frame.bytes()))
                        .as("bytes of record %d", count)
                        .isTrue();
                assertThat(record.timestamp()).isEqualTo(frame.timestamp());
                assertThat(record.truncated()).isEqualTo(frame.isTruncated());
                count++;
            }
            assertThat(stream.next()).isNull();
            assertThat(count).isEqualTo(3_000);
        }
    }

    @Test
    void shouldLeaveWhatIsNotAClassicPcapToLibpcap() throws Exception {
        assertThat(ClassicPcapStream.open(Files.writeString(dir.resolve("notes.txt"), "not a capture at all, no")))
                .isNull();
        assertThat(ClassicPcapStream.open(dir.resolve("absent.pcap"))).isNull();
    }

    @Test
    void shouldNameTheFileOfARecordCutShort() throws Exception {
        final Path capture = dir.resolve("cut.pcap");
        SyntheticCapture.write(capture, 10, 2, 4);
        final byte[] bytes = Files.readAllBytes(capture);
        final Path cut = Files.write(dir.resolve("cut-short.pcap"), Arrays.copyOf(bytes, bytes.length - 7));
        try (ClassicPcapStream stream = ClassicPcapStream.open(cut)) {
            assertThatThrownBy(() -> {
                        while (stream.next() != null) {
                            // read on
                        }
                    })
                    .isInstanceOf(CaptureFileException.class)
                    .hasMessageContaining("cut-short.pcap")
                    .hasMessageContaining("damaged record 9");
        }
    }
}
