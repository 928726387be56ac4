package org.mrconf.markdown;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.mrconf.markdown.MarkdownTables.Table;

class MarkdownTablesTest {
    @Test
    void shouldReadTheHeaderAndBodyRowsWithTheirLines() {
        final List<Table> tables = MarkdownTables.parse(List.of(
                "# A document",
                "",
                "| Offset | Size | Field |",
                "| ---: | ---: | --- |",
                "| 0 | 1 | version |",
                "| 1 | 1 | opcode |",
                "",
                "Some text.",
                "",
                "| Argument | Required |",
                "| --- | --- |",
                "| `localId` | yes |"));

        assertThat(tables).hasSize(2);
        assertThat(tables.get(0).line()).isEqualTo(3);
        assertThat(tables.get(0).header()).containsExactly("Offset", "Size", "Field");
        assertThat(tables.get(0).rows()).containsExactly(List.of("0", "1", "version"), List.of("1", "1", "opcode"));
        assertThat(tables.get(0).raggedLines()).isEmpty();
        assertThat(tables.get(1).line()).isEqualTo(10);
        assertThat(tables.get(1).rows()).containsExactly(List.of("`localId`", "yes"));
    }

    @Test
    void shouldFindATableRightAfterACaptionLineAndKeepTheCaptionOut() {
        final List<Table> tables = MarkdownTables.parse(List.of(
                "Table 5-1: Common header (`CommonHeaderFlyweight`)", "| a | b |", "| --- | --- |", "| 1 | 2 |"));

        assertThat(tables).singleElement().satisfies(table -> {
            assertThat(table.line()).isEqualTo(2);
            assertThat(table.header()).containsExactly("a", "b");
            assertThat(table.rows()).containsExactly(List.of("1", "2"));
        });
    }

    @Test
    void shouldKeepTheMarkdownOfACellAndUndoTheTableEscapeOfAPipe() {
        final List<Table> tables = MarkdownTables.parse(
                List.of("| Name | Meaning |", "| --- | --- |", "| `a \\| b` | **bold**, no *default* |"));

        assertThat(tables.get(0).rows()).containsExactly(List.of("`a | b`", "**bold**, no *default*"));
    }

    @Test
    void shouldReadAnEmptyHeaderAndEmptyCells() {
        final List<Table> tables =
                MarkdownTables.parse(List.of("| | |", "| --- | --- |", "| Spec version | 0.2 |", "|| x |", "| y ||"));

        assertThat(tables.get(0).header()).containsExactly("", "");
        assertThat(tables.get(0).rows())
                .containsExactly(List.of("Spec version", "0.2"), List.of("", "x"), List.of("y", ""));
        assertThat(tables.get(0).raggedLines()).isEmpty();
    }

    @Test
    void shouldMarkRowsWrittenWithFewerOrMoreCellsThanTheHeader() {
        final List<Table> tables = MarkdownTables.parse(
                List.of("| a | b | c |", "| --- | --- | --- |", "| 1 | 2 | 3 |", "| 1 | 2 |", "| 1 | 2 | 3 | 4 |"));

        assertThat(tables.get(0).rows())
                .containsExactly(List.of("1", "2", "3"), List.of("1", "2", ""), List.of("1", "2", "3"));
        assertThat(tables.get(0).raggedLines()).containsExactly(4, 5);
    }

    @Test
    void shouldFindTablesInsideBlockQuotesButNotInCode() {
        final List<Table> tables = MarkdownTables.parse(List.of(
                "> | a |", "> | --- |", "> | 1 |", "", "```", "| b |", "| --- |", "| 2 |", "```", "", "    | c |"));

        assertThat(tables)
                .singleElement()
                .satisfies(table -> assertThat(table.header()).containsExactly("a"));
    }

    @Test
    void shouldFindNoTableWithoutADelimiterRow() {
        assertThat(MarkdownTables.parse(List.of("| Spec version | 0.2 |", "| Wire version | 1.0 |")))
                .isEmpty();
    }
}
