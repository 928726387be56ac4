package org.mrconf.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.mrconf.defect.Defect;

/**
 * The one sentence that says what each defect of the reference's catalogue does wrong, for {@code selftest --list}:
 * the first sentence of the defect's Javadoc in {@code Defect.java}, kept in {@code defect-sentences.tsv} beside this
 * class (one {@code flag-name TAB sentence} a line). {@code DefectSentencesTest} fails when the file and the Javadoc
 * differ, and rewrites the file with {@code -Dmetaroce.regenerate=true}.
 */
final class DefectSentences {
    /** The resource, relative to this class. */
    static final String RESOURCE = "defect-sentences.tsv";

    private static final Map<String, String> SENTENCES = load();

    private DefectSentences() {}

    /** The defect's sentence, or empty when the file has none for it. */
    static Optional<String> of(final Defect defect) {
        return Optional.ofNullable(SENTENCES.get(defect.flagName()));
    }

    private static Map<String, String> load() {
        final Map<String, String> sentences = new LinkedHashMap<>();
        try (InputStream in = DefectSentences.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return Map.of();
            }
            final BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                final int tab = line.indexOf('\t');
                if (tab > 0) {
                    sentences.put(line.substring(0, tab), line.substring(tab + 1));
                }
            }
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.copyOf(sentences);
    }
}
