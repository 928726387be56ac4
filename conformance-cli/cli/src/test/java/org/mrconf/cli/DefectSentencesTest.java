package org.mrconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.mrconf.defect.Defect;

/**
 * {@code selftest --list} shows each defect's sentence (issue 35): the file {@link DefectSentences} reads holds, for
 * every defect, the first sentence of its Javadoc in {@code Defect.java}. Run with {@code -Dmetaroce.regenerate=true}
 * to rewrite the file after a defect was added or its Javadoc changed. The repository root is {@code ../..}, or
 * {@code -Dmrconf.root}.
 */
class DefectSentencesTest {
    private static final Path ROOT = Path.of(System.getProperty("mrconf.root", "../.."));
    private static final Path SOURCE = ROOT.resolve("reference-impl/src/main/java/org/mrconf/defect/Defect.java");
    private static final Path FILE =
            Path.of("src/main/resources/org/mrconf/cli/").resolve(DefectSentences.RESOURCE);
    private static final Pattern CONSTANT =
            Pattern.compile("/\\*\\*((?:(?!\\*/).)*)\\*/\\s*(?:@\\w+\\s*)*([A-Z][A-Z0-9_]*)\\(", Pattern.DOTALL);
    private static final Pattern INLINE_TAG = Pattern.compile("\\{@(?:code|link|linkplain|literal)\\s+([^}]*)}");
    private static final Pattern SENTENCE_END = Pattern.compile("[.!?](?=\\s+[A-Z(]|$)");

    @Test
    void everyDefectHasTheFirstSentenceOfItsJavadoc() throws Exception {
        final String expected = Files.readString(SOURCE, StandardCharsets.UTF_8);
        final Map<String, String> sentences = new LinkedHashMap<>();
        final Matcher constant = CONSTANT.matcher(expected);
        while (constant.find()) {
            sentences.put(
                    constant.group(2).toLowerCase(Locale.ROOT).replace('_', '-'), firstSentence(constant.group(1)));
        }
        final String file = sentences.entrySet().stream()
                .map(e -> e.getKey() + "\t" + e.getValue() + "\n")
                .collect(Collectors.joining());
        if (Boolean.getBoolean("metaroce.regenerate")) {
            Files.writeString(FILE, file, StandardCharsets.UTF_8);
        }
        assertThat(sentences.keySet())
                .as("the constants of %s", SOURCE)
                .containsExactlyInAnyOrderElementsOf(java.util.Arrays.stream(Defect.values())
                        .map(Defect::flagName)
                        .toList());
        assertThat(Files.readString(FILE, StandardCharsets.UTF_8))
                .as("%s is behind Defect.java's Javadoc: rerun this test with -Dmetaroce.regenerate=true", FILE)
                .isEqualTo(file);
        for (final Defect defect : Defect.values()) {
            assertThat(DefectSentences.of(defect)).as("%s", defect).contains(sentences.get(defect.flagName()));
        }
    }

    @Test
    void selftestListShowsEachDefectsSentence() {
        final StringWriter out = new StringWriter();
        final int exit = MetaroceCommand.commandLine(new PrintWriter(out, true), new PrintWriter(new StringWriter()))
                .execute("selftest", "--list");

        assertThat(exit).isZero();
        assertThat(out.toString())
                .containsPattern("(?m)^accept-bad-crc +breaks 5\\.6\\.2\\R {4}\\S.*\\.$")
                .contains(
                        "\n    " + DefectSentences.of(Defect.LAST_PATH_REJECTED).orElseThrow() + "\n");
    }

    /** The Javadoc's text without its stars, tags and line breaks, up to the end of its first sentence. */
    private static String firstSentence(final String javadoc) {
        String text = javadoc.replaceAll("(?m)^\\s*\\*", " ");
        text = INLINE_TAG
                .matcher(text)
                .replaceAll(m -> Matcher.quoteReplacement(m.group(1).strip()));
        text = text.replaceAll("<[^>]+>", " ").replaceAll("\\s+", " ").strip();
        final Matcher end = SENTENCE_END.matcher(text);
        return end.find() ? text.substring(0, end.end()) : text;
    }
}
