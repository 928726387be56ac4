package org.mrconf.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mrconf.markdown.MarkdownTables;

/**
 * Checks the codec's constants against the tables of spec section 5, read from the spec text itself:
 * every row of a layout table must map to an offset and size constant, and every mapping to a row.
 */
class SpecTableTest {
    private static final Path FULL_SPEC = Path.of("../spec/metaroce-open-draft.md");
    private static final Path SECTION = Path.of("../spec/sections/05-packet-formats.md");
    private static final Pattern CAPTION = Pattern.compile("^Table (5-\\d+): (.*)$");
    private static final Pattern FLYWEIGHT = Pattern.compile("\\(`(\\w+)`\\)\\s*$");
    private static final Pattern FROM_END = Pattern.compile("packet length - (\\d+)");

    /**
     * A parsed table: its number, the flyweight its caption names (or null), its body rows and the lines of the rows
     * written with another number of cells than its header.
     */
    record Table(String number, String flyweight, List<List<String>> rows, List<Integer> raggedLines) {}

    private static Map<String, Table> tables;

    @BeforeAll
    static void readSpec() throws IOException {
        tables = parse(Files.readAllLines(Files.exists(FULL_SPEC) ? FULL_SPEC : SECTION));
    }

    /**
     * The tables of section 5 by number: each is the first table after its caption line "Table 5-n: ...", its rows
     * as the shared Markdown table parser reads them.
     */
    static Map<String, Table> parse(List<String> lines) {
        List<MarkdownTables.Table> all = MarkdownTables.parse(lines);
        Map<String, Table> result = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher caption = CAPTION.matcher(lines.get(i).trim());
            if (!caption.matches()) {
                continue;
            }
            int captionLine = i + 1;
            MarkdownTables.Table table = all.stream()
                    .filter(t -> t.line() > captionLine)
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no table after the caption at line " + captionLine));
            Matcher flyweight = FLYWEIGHT.matcher(caption.group(2));
            result.put(
                    caption.group(1),
                    new Table(
                            caption.group(1),
                            flyweight.find() ? flyweight.group(1) : null,
                            table.rows(),
                            table.raggedLines()));
        }
        return result;
    }

    /** Which class each layout table's caption names. */
    private static final Map<String, Class<?>> FLYWEIGHTS = Map.ofEntries(
            Map.entry("5-1", CommonHeaderFlyweight.class),
            Map.entry("5-4", DataHeaderFlyweight.class),
            Map.entry("5-5", DataHeaderFlyweight.class),
            Map.entry("5-6", DataHeaderFlyweight.class),
            Map.entry("5-7", DataHeaderFlyweight.class),
            Map.entry("5-8", DataHeaderFlyweight.class),
            Map.entry("5-9", AckFlyweight.class),
            Map.entry("5-10", NackFlyweight.class),
            Map.entry("5-11", ProbeFlyweight.class),
            Map.entry("5-12", Crc32cTrailer.class));

    /** Where each layout table's rows end: the header length of the flyweight or opcode. */
    private static final Map<String, Integer> TABLE_END = Map.ofEntries(
            Map.entry("5-1", CommonHeaderFlyweight.HEADER_LENGTH),
            Map.entry("5-4", DataHeaderFlyweight.HEADER_LENGTH),
            Map.entry("5-5", Opcode.WRITE_WITH_IMMEDIATE.headerLength()),
            Map.entry("5-6", Opcode.SEND.headerLength()),
            Map.entry("5-7", Opcode.READ_REQUEST.headerLength()),
            Map.entry("5-8", Opcode.READ_RESPONSE.headerLength()),
            Map.entry("5-9", AckFlyweight.HEADER_LENGTH),
            Map.entry("5-10", NackFlyweight.HEADER_LENGTH),
            Map.entry("5-11", ProbeFlyweight.HEADER_LENGTH));

    /**
     * "table field" (with #2 for a repeated name) to {offset, size}. The trailer's offset counts back
     * from the end of the packet, so it is stored negative.
     */
    private static final Map<String, int[]> FIELDS = new LinkedHashMap<>();

    static {
        field("5-1 version", CommonHeaderFlyweight.VERSION_OFFSET, CommonHeaderFlyweight.VERSION_SIZE);
        field("5-1 opcode", CommonHeaderFlyweight.OPCODE_OFFSET, CommonHeaderFlyweight.OPCODE_SIZE);
        field("5-1 flags", CommonHeaderFlyweight.FLAGS_OFFSET, CommonHeaderFlyweight.FLAGS_SIZE);
        field(
                "5-1 destination connection id",
                CommonHeaderFlyweight.DESTINATION_CONNECTION_ID_OFFSET,
                CommonHeaderFlyweight.DESTINATION_CONNECTION_ID_SIZE);
        field("5-1 path id", CommonHeaderFlyweight.PATH_ID_OFFSET, CommonHeaderFlyweight.PATH_ID_SIZE);
        field("5-1 reserved", CommonHeaderFlyweight.RESERVED_1_OFFSET, CommonHeaderFlyweight.RESERVED_1_SIZE);
        field("5-1 reserved#2", CommonHeaderFlyweight.RESERVED_2_OFFSET, CommonHeaderFlyweight.RESERVED_2_SIZE);
        field("5-1 psn", CommonHeaderFlyweight.PSN_OFFSET, CommonHeaderFlyweight.PSN_SIZE);

        field("5-4 stream id", DataHeaderFlyweight.STREAM_ID_OFFSET, DataHeaderFlyweight.STREAM_ID_SIZE);
        field("5-4 payload length", DataHeaderFlyweight.PAYLOAD_LENGTH_OFFSET, DataHeaderFlyweight.PAYLOAD_LENGTH_SIZE);
        field(
                "5-4 message sequence number",
                DataHeaderFlyweight.MESSAGE_SEQUENCE_NUMBER_OFFSET,
                DataHeaderFlyweight.MESSAGE_SEQUENCE_NUMBER_SIZE);
        field("5-4 message length", DataHeaderFlyweight.MESSAGE_LENGTH_OFFSET, DataHeaderFlyweight.MESSAGE_LENGTH_SIZE);
        field("5-4 message offset", DataHeaderFlyweight.MESSAGE_OFFSET_OFFSET, DataHeaderFlyweight.MESSAGE_OFFSET_SIZE);
        field(
                "5-4 transmit timestamp",
                DataHeaderFlyweight.TRANSMIT_TIMESTAMP_OFFSET,
                DataHeaderFlyweight.TRANSMIT_TIMESTAMP_SIZE);

        field("5-5 remote address", DataHeaderFlyweight.REMOTE_ADDRESS_OFFSET, DataHeaderFlyweight.REMOTE_ADDRESS_SIZE);
        field("5-5 remote key", DataHeaderFlyweight.REMOTE_KEY_OFFSET, DataHeaderFlyweight.REMOTE_KEY_SIZE);
        field("5-5 immediate", DataHeaderFlyweight.IMMEDIATE_OFFSET, DataHeaderFlyweight.IMMEDIATE_SIZE);

        field(
                "5-6 receive sequence number",
                DataHeaderFlyweight.RECEIVE_SEQUENCE_NUMBER_OFFSET,
                DataHeaderFlyweight.RECEIVE_SEQUENCE_NUMBER_SIZE);

        field("5-7 remote address", DataHeaderFlyweight.REMOTE_ADDRESS_OFFSET, DataHeaderFlyweight.REMOTE_ADDRESS_SIZE);
        field("5-7 remote key", DataHeaderFlyweight.REMOTE_KEY_OFFSET, DataHeaderFlyweight.REMOTE_KEY_SIZE);
        field(
                "5-7 sink handle",
                DataHeaderFlyweight.READ_REQUEST_SINK_HANDLE_OFFSET,
                DataHeaderFlyweight.SINK_HANDLE_SIZE);

        field(
                "5-8 sink handle",
                DataHeaderFlyweight.READ_RESPONSE_SINK_HANDLE_OFFSET,
                DataHeaderFlyweight.SINK_HANDLE_SIZE);

        field("5-9 echoed timestamp", AckFlyweight.ECHOED_TIMESTAMP_OFFSET, AckFlyweight.ECHOED_TIMESTAMP_SIZE);
        field("5-9 ce count", AckFlyweight.CE_COUNT_OFFSET, AckFlyweight.CE_COUNT_SIZE);
        field("5-9 reserved", AckFlyweight.RESERVED_OFFSET, AckFlyweight.RESERVED_SIZE);
        field("5-9 rate hint", AckFlyweight.RATE_HINT_OFFSET, AckFlyweight.RATE_HINT_SIZE);
        field("5-9 sack bitmap", AckFlyweight.SACK_BITMAP_OFFSET, AckFlyweight.SACK_BITMAP_SIZE);

        field("5-10 code", NackFlyweight.CODE_OFFSET, NackFlyweight.CODE_SIZE);
        field("5-10 reserved", NackFlyweight.RESERVED_OFFSET, NackFlyweight.RESERVED_SIZE);
        field("5-10 stream id", NackFlyweight.STREAM_ID_OFFSET, NackFlyweight.STREAM_ID_SIZE);
        field(
                "5-10 message sequence number",
                NackFlyweight.MESSAGE_SEQUENCE_NUMBER_OFFSET,
                NackFlyweight.MESSAGE_SEQUENCE_NUMBER_SIZE);
        field("5-10 cumulative psn", NackFlyweight.CUMULATIVE_PSN_OFFSET, NackFlyweight.CUMULATIVE_PSN_SIZE);
        field("5-10 retry after", NackFlyweight.RETRY_AFTER_OFFSET, NackFlyweight.RETRY_AFTER_SIZE);

        field(
                "5-11 transmit timestamp",
                ProbeFlyweight.TRANSMIT_TIMESTAMP_OFFSET,
                ProbeFlyweight.TRANSMIT_TIMESTAMP_SIZE);

        field("5-12 crc32c", -Crc32cTrailer.LENGTH, Crc32cTrailer.CRC32C_SIZE);
    }

    private static void field(String key, int offset, int size) {
        FIELDS.put(key, new int[] {offset, size});
    }

    @Test
    void shouldFindEveryTableOfTheSection() {
        assertThat(tables.keySet())
                .contains("5-1", "5-2", "5-3", "5-4", "5-5", "5-6", "5-7", "5-8", "5-9", "5-10", "5-11", "5-12");
    }

    @Test
    void shouldNameTheFlyweightThatImplementsEachLayoutTable() {
        FLYWEIGHTS.forEach((number, type) -> assertThat(tables.get(number).flyweight())
                .as("caption of Table %s", number)
                .isEqualTo(type.getSimpleName()));
    }

    @Test
    void shouldMatchEveryLayoutRowToAnOffsetAndSizeConstant() {
        Set<String> seen = new HashSet<>();
        List<String> unmapped = new ArrayList<>();
        for (String number : FLYWEIGHTS.keySet()) {
            assertThat(tables.get(number).raggedLines())
                    .as("lines of Table %s rows with another number of cells than its header", number)
                    .isEmpty();
            for (List<String> row : tables.get(number).rows()) {
                assertThat(row).as("Table %s row", number).hasSize(4);
                String key = number + " " + row.get(2).toLowerCase();
                if (!seen.add(key)) {
                    key += "#2";
                    seen.add(key);
                }
                int[] expected = FIELDS.get(key);
                if (expected == null) {
                    unmapped.add(key);
                    continue;
                }
                assertThat(parseOffset(row.get(0))).as("offset of %s", key).isEqualTo(expected[0]);
                assertThat(Integer.parseInt(row.get(1))).as("size of %s", key).isEqualTo(expected[1]);
            }
        }
        assertThat(unmapped).as("spec rows with no constant in this test").isEmpty();
        assertThat(seen).as("mappings with no spec row").containsAll(FIELDS.keySet());
    }

    @Test
    void shouldTileEachHeaderWithoutGapsUpToItsHeaderLength() {
        TABLE_END.forEach((number, end) -> {
            List<List<String>> rows = new ArrayList<>(tables.get(number).rows());
            rows.sort(Comparator.comparingInt(row -> parseOffset(row.get(0))));
            int next = parseOffset(rows.get(0).get(0));
            assertThat(next)
                    .as("Table %s start", number)
                    .isIn(0, CommonHeaderFlyweight.HEADER_LENGTH, DataHeaderFlyweight.HEADER_LENGTH);
            for (List<String> row : rows) {
                assertThat(parseOffset(row.get(0)))
                        .as("Table %s field %s", number, row.get(2))
                        .isEqualTo(next);
                next += Integer.parseInt(row.get(1));
            }
            assertThat(next).as("Table %s end", number).isEqualTo(end);
        });
    }

    @Test
    void shouldPlaceTheTrailerAtTheEndOfThePacket() {
        assertThat(Crc32cTrailer.trailerOffset(100)).isEqualTo(100 + FIELDS.get("5-12 crc32c")[0]);
        assertThat(WireConstants.TRAILER_LENGTH).isEqualTo(Crc32cTrailer.LENGTH);
    }

    @Test
    void shouldMatchTheOpcodeTable() {
        Set<Opcode> listed = new HashSet<>();
        for (List<String> row : tables.get("5-2").rows()) {
            Opcode opcode = Opcode.valueOf(row.get(1));
            listed.add(opcode);
            assertThat(Integer.decode(row.get(0))).as("value of %s", opcode).isEqualTo(opcode.value());
            assertThat(Integer.parseInt(row.get(2)))
                    .as("header length of %s", opcode)
                    .isEqualTo(opcode.headerLength());
            assertThat(row.get(3))
                    .as("carries payload of %s", opcode)
                    .isEqualTo(opcode.carriesPayload() ? "yes" : "no");
        }
        assertThat(listed).containsExactlyInAnyOrder(Opcode.values());
    }

    @Test
    void shouldMatchTheFlagsTable() {
        Map<String, Integer> named = Map.of(
                "RETRANSMISSION", PacketFlags.RETRANSMISSION,
                "ACK_REQUEST", PacketFlags.ACK_REQUEST);
        Set<String> seen = new HashSet<>();
        int defined = 0;
        for (List<String> row : tables.get("5-3").rows()) {
            if (row.get(0).equals("others")) {
                assertThat(row.get(1)).isEqualTo("reserved");
                continue;
            }
            assertThat(named).as("flag %s", row.get(1)).containsKey(row.get(1));
            assertThat(Integer.decode(row.get(0))).as("mask of %s", row.get(1)).isEqualTo(named.get(row.get(1)));
            defined |= named.get(row.get(1));
            seen.add(row.get(1));
        }
        assertThat(seen).containsExactlyInAnyOrderElementsOf(named.keySet());
        assertThat(PacketFlags.DEFINED_MASK).isEqualTo(defined);
        assertThat(PacketFlags.RESERVED_MASK).isEqualTo(0xFFFF & ~defined);
    }

    private static int parseOffset(String cell) {
        Matcher fromEnd = FROM_END.matcher(cell);
        return fromEnd.matches() ? -Integer.parseInt(fromEnd.group(1)) : Integer.parseInt(cell);
    }
}
