package org.mrconf.annex;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mrconf.wire.Packet;

/**
 * Annex C of the spec, checked both ways: the committed text is exactly what the codec generates, and, read on its
 * own (as an implementer would), every example's hex dump matches its field table byte for byte, ends in the right
 * CRC32C, decodes without error, and re-encodes to the same bytes. Run with {@code -Dgolden.update=true} to rewrite
 * the annex from the codec after a deliberate change.
 */
class WorkedExamplesTest {
    private static final Path SPEC = Path.of("..", "spec", "metaroce-open-draft.md");
    private static final Pattern EXAMPLE = Pattern.compile("^### (C\\.\\d+) (.+)$");
    private static final Pattern ROW =
            Pattern.compile("^\\| (\\d+) \\| (\\d+) \\| ([^|]+) \\| 0x([0-9a-f]+) \\| ([^|]*) \\|$");
    private static final Pattern DUMP = Pattern.compile("^([0-9a-f]{4}) ((?: [0-9a-f]{2}){1,16})$");
    private static final HexFormat HEX = HexFormat.of();

    private String spec;

    /** One example as the annex text gives it. */
    private record Row(int offset, int size, String field, byte[] value) {}

    private record Example(String id, String title, List<Row> rows, byte[] dump) {}

    @BeforeEach
    void read() throws Exception {
        spec = Files.readString(SPEC, StandardCharsets.UTF_8);
        if (Boolean.getBoolean("golden.update")) {
            final int start = spec.indexOf(WorkedExamples.HEADING);
            final String head = start < 0 ? spec.stripTrailing() + "\n\n" : spec.substring(0, start);
            spec = head + WorkedExamples.annex();
            Files.writeString(SPEC, spec, StandardCharsets.UTF_8);
        }
    }

    @Test
    void shouldHoldExactlyTheGeneratedAnnex() {
        final int start = spec.indexOf(WorkedExamples.HEADING);
        assertThat(start).as("the spec has Annex C").isNotNegative();
        assertThat(spec.substring(start))
                .as("Annex C is generated from the codec: regenerate with -Dgolden.update=true and review the diff")
                .isEqualTo(WorkedExamples.annex());
    }

    @Test
    void shouldShowEveryPacketType() {
        final List<String> titles = parse().stream().map(Example::title).toList();
        assertThat(titles)
                .contains("WRITE", "WRITE_WITH_IMMEDIATE", "SEND", "READ_REQUEST", "READ_RESPONSE", "PROBE")
                .contains("ACK with a SACK gap")
                .contains(
                        "NACK REMOTE_ACCESS",
                        "NACK BOUNDS",
                        "NACK RECEIVER_NOT_READY",
                        "NACK MESSAGE_TOO_LONG",
                        "NACK INVALID_REQUEST",
                        "NACK UNKNOWN_CONNECTION",
                        "NACK PSN_OUT_OF_WINDOW");
    }

    @Test
    void shouldHaveHexThatMatchesTheAnnotatedFieldsAndTheCrc() {
        for (final Example example : parse()) {
            final byte[] bytes = example.dump();
            int covered = 0;
            for (final Row row : example.rows()) {
                assertThat(row.offset())
                        .as("%s %s: fields in wire order, no gap", example.id(), row.field())
                        .isEqualTo(covered);
                assertThat(row.value())
                        .as("%s %s: value has its size", example.id(), row.field())
                        .hasSize(row.size());
                final byte[] slice = java.util.Arrays.copyOfRange(bytes, row.offset(), row.offset() + row.size());
                assertThat(HEX.formatHex(slice))
                        .as("%s %s at offset %d", example.id(), row.field(), row.offset())
                        .isEqualTo(HEX.formatHex(row.value()));
                covered += row.size();
            }
            assertThat(covered)
                    .as("%s: the table covers every byte", example.id())
                    .isEqualTo(bytes.length);
            final Row last = example.rows().get(example.rows().size() - 1);
            assertThat(last.field()).isEqualTo("crc32c");
            final CRC32C crc = new CRC32C();
            crc.update(bytes, 0, bytes.length - 4);
            assertThat(Long.parseLong(HEX.formatHex(last.value()), 16))
                    .as("%s: CRC32C of bytes 0 to %d", example.id(), bytes.length - 5)
                    .isEqualTo(crc.getValue());
        }
    }

    @Test
    void shouldDecodeAndReencodeToTheSameBytes() {
        final List<WorkedExamples.Example> generated = WorkedExamples.examples();
        final List<Example> annex = parse();
        assertThat(annex).hasSameSizeAs(generated);
        for (int i = 0; i < annex.size(); i++) {
            final byte[] bytes = annex.get(i).dump();
            final Packet decoded = Packet.decode(ByteBuffer.wrap(bytes), 0, bytes.length);
            assertThat(decoded.opcode()).isEqualTo(generated.get(i).packet().opcode());
            assertThat(HEX.formatHex(decoded.toBytes()))
                    .as(
                            "%s: the decoded fields re-encode to the annex's bytes",
                            annex.get(i).id())
                    .isEqualTo(HEX.formatHex(bytes));
            assertThat(HEX.formatHex(generated.get(i).packet().toBytes()))
                    .as(
                            "%s: the codec encodes the example's fields to the annex's bytes",
                            annex.get(i).id())
                    .isEqualTo(HEX.formatHex(bytes));
        }
    }

    /** Reads the examples from the committed annex text alone. */
    private List<Example> parse() {
        final String annex = spec.substring(spec.indexOf(WorkedExamples.HEADING));
        final List<Example> examples = new ArrayList<>();
        String id = null;
        String title = null;
        List<Row> rows = new ArrayList<>();
        ByteBuffer dump = null;
        for (final String line : annex.split("\n", -1)) {
            final Matcher heading = EXAMPLE.matcher(line);
            final Matcher row = ROW.matcher(line);
            final Matcher hex = DUMP.matcher(line);
            if (heading.matches()) {
                id = heading.group(1);
                title = heading.group(2);
                rows = new ArrayList<>();
                dump = ByteBuffer.allocate(65_536);
            } else if (row.matches()) {
                rows.add(new Row(
                        Integer.parseInt(row.group(1)),
                        Integer.parseInt(row.group(2)),
                        row.group(3).strip(),
                        HEX.parseHex(row.group(4))));
            } else if (hex.matches() && dump != null) {
                assertThat(Integer.parseInt(hex.group(1), 16))
                        .as("%s dump offset", id)
                        .isEqualTo(dump.position());
                dump.put(HEX.parseHex(hex.group(2).replace(" ", "")));
            } else if (line.equals("```") && dump != null && dump.position() > 0) {
                final byte[] bytes = new byte[dump.position()];
                dump.flip().get(bytes);
                examples.add(new Example(id, title, List.copyOf(rows), bytes));
                dump = null;
            }
        }
        assertThat(examples).as("examples in Annex C").isNotEmpty();
        return examples;
    }
}
