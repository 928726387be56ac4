package org.mrconf.markdown;

import java.util.ArrayList;
import java.util.List;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TableBody;
import org.commonmark.ext.gfm.tables.TableCell;
import org.commonmark.ext.gfm.tables.TableHead;
import org.commonmark.ext.gfm.tables.TableRow;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.CustomBlock;
import org.commonmark.node.Node;
import org.commonmark.node.SourceSpan;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;

/**
 * The pipe tables of a Markdown document, as GitHub-flavoured Markdown reads them (commonmark-java with its GFM
 * tables extension): the one table parser of the catalogue ({@code SpecDocument}), the codec's spec-table test and
 * the control-protocol document test, so that all three read a table exactly as a reader of the rendered page sees
 * it. Cells keep their Markdown source (backticks, emphasis), trimmed, with the table escape {@code \|} undone, so
 * that a caller can look for a {@code `name`} in a cell.
 */
public final class MarkdownTables {
    /** Thread-safe and immutable (commonmark-java's contract), so one serves every caller. */
    private static final Parser PARSER = Parser.builder()
            .extensions(List.of(TablesExtension.create()))
            .includeSourceSpans(IncludeSourceSpans.BLOCKS_AND_INLINES)
            .build();

    /**
     * One table.
     *
     * @param line        1-based line of its header row in the document
     * @param header      the cells of the header row
     * @param rows        the body rows; GFM pads a short row with empty cells and cuts a long one to the header's width
     * @param raggedLines 1-based lines of the body rows written with another number of cells than the header has (GFM
     *                    padded or cut them), so that a caller that needs well-formed rows can reject them
     */
    public record Table(int line, List<String> header, List<List<String>> rows, List<Integer> raggedLines) {
        public Table {
            header = List.copyOf(header);
            rows = rows.stream().map(List::copyOf).toList();
            raggedLines = List.copyOf(raggedLines);
        }
    }

    private MarkdownTables() {}

    /** The tables of a document given as its lines (without line terminators), in document order. */
    public static List<Table> parse(final List<String> lines) {
        final String text = String.join("\n", lines);
        final List<Table> tables = new ArrayList<>();
        PARSER.parse(text).accept(new AbstractVisitor() {
            @Override
            public void visit(final CustomBlock block) {
                if (block instanceof TableBlock table) {
                    tables.add(table(text, table));
                } else {
                    visitChildren(block);
                }
            }
        });
        return tables;
    }

    private static Table table(final String text, final TableBlock block) {
        List<String> header = List.of();
        int headerLine = line(block);
        final List<List<String>> rows = new ArrayList<>();
        final List<Integer> ragged = new ArrayList<>();
        for (Node section = block.getFirstChild(); section != null; section = section.getNext()) {
            for (Node row = section.getFirstChild(); row != null; row = row.getNext()) {
                if (!(row instanceof TableRow tableRow)) {
                    continue;
                }
                if (section instanceof TableHead) {
                    header = cells(text, tableRow);
                    headerLine = line(tableRow);
                } else if (section instanceof TableBody) {
                    rows.add(cells(text, tableRow));
                    if (isRagged(text, tableRow, header.size())) {
                        ragged.add(line(tableRow));
                    }
                }
            }
        }
        return new Table(headerLine, header, rows, ragged);
    }

    private static List<String> cells(final String text, final TableRow row) {
        final List<String> cells = new ArrayList<>();
        for (Node cell = row.getFirstChild(); cell != null; cell = cell.getNext()) {
            if (cell instanceof TableCell) {
                // A cell GFM added to pad a short row, or an empty one, has no source.
                cells.add(source(text, cell).strip().replace("\\|", "|"));
            }
        }
        return cells;
    }

    /**
     * Whether the row as written has another number of cells than the header: GFM splits a row at every pipe that is
     * not escaped (in code spans too), the outer pipes being optional.
     */
    private static boolean isRagged(final String text, final TableRow row, final int width) {
        String written = source(text, row).strip();
        if (written.startsWith("|")) {
            written = written.substring(1);
        }
        if (written.endsWith("|") && !written.endsWith("\\|")) {
            written = written.substring(0, written.length() - 1);
        }
        int cells = 1;
        for (int i = 0; i < written.length(); i++) {
            if (written.charAt(i) == '\\') {
                i++;
            } else if (written.charAt(i) == '|') {
                cells++;
            }
        }
        return cells != width;
    }

    private static String source(final String text, final Node node) {
        final StringBuilder source = new StringBuilder();
        for (final SourceSpan span : node.getSourceSpans()) {
            source.append(text, span.getInputIndex(), span.getInputIndex() + span.getLength());
        }
        return source.toString();
    }

    private static int line(final Node node) {
        return node.getSourceSpans().get(0).getLineIndex() + 1;
    }
}
