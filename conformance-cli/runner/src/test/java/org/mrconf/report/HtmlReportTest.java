package org.mrconf.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * report.html is self-contained, escapes what the device sent, and loads in a real browser (Debian's headless
 * Chromium) without a console message; its script runs (the filter count appears, a filter in the link hides
 * rows); a screenshot of the summary is written under target/ for a person to look at.
 */
class HtmlReportTest {
    private static final Path CHROMIUM = onPath("chromium");

    @TempDir
    Path dir;

    @Test
    void shouldEscapeEverythingTheDeviceSent() {
        final String html = HtmlReport.toHtml(SampleRuns.finished());

        assertThat(html).doesNotContain("<script>alert");
        assertThat(count(html, "<script")).as("only the page's own script").isEqualTo(1);
        assertThat(html).doesNotContain("\u0007").doesNotContain("\u001b");
        assertThat(html).contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
    }

    @Test
    void shouldFetchNothing() {
        final String html = HtmlReport.toHtml(SampleRuns.finished());

        assertThat(html).contains("Content-Security-Policy").contains("default-src 'none'");
        final Matcher urls =
                Pattern.compile("(?:src|href)\\s*=\\s*\"([^\"]*)\"").matcher(html);
        while (urls.find()) {
            assertThat(urls.group(1)).as("a link or source").startsWith("./");
        }
        assertThat(html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "")).doesNotContain("http://", "https://");
    }

    @Test
    void shouldMarkARunThatDidNotFinish() {
        assertThat(HtmlReport.toHtml(SampleRuns.interrupted())).contains("class=\"banner interrupted\"");
        assertThat(HtmlReport.toHtml(SampleRuns.running())).contains("class=\"banner running\"");
        assertThat(HtmlReport.toHtml(SampleRuns.finished())).doesNotContain("class=\"banner");
    }

    @Test
    void shouldShowTheFirstBytesOfALongPacket() {
        assertThat(HtmlReport.hexPreview("0102")).isEqualTo("0102");
        final String long200 = "ab".repeat(200);
        assertThat(HtmlReport.hexPreview(long200)).isEqualTo("ab".repeat(64) + "\u2026 (200 bytes)");
    }

    @Test
    void shouldDrawTheFailureAsALadderDiagram() {
        final String svg = LadderDiagram.svg(
                SampleRuns.finished().cases().get(1).evidence().packets());

        assertThat(count(svg, "<line class=\"arrow out\"")).isEqualTo(1);
        assertThat(count(svg, "<line class=\"arrow in\"")).isEqualTo(2);
        assertThat(svg).doesNotContain("<script");
    }

    @Test
    void shouldLoadInChromiumWithoutConsoleMessages() throws Exception {
        assumeTrue(CHROMIUM != null, "chromium is not on PATH (Debian package chromium; .ci/run installs it)");
        final Path page = dir.resolve("report.html");
        Files.writeString(page, HtmlReport.toHtml(SampleRuns.finished()), StandardCharsets.UTF_8);

        final Browser run = chromium(page.toUri() + "", "--dump-dom");

        assertThat(run.consoleLines())
                .as("console messages (a script error or a blocked fetch)")
                .isEmpty();
        assertThat(run.stdout()).as("the script ran").contains("7 of 7 clauses shown");
    }

    @Test
    void shouldApplyAFilterGivenInTheLink() throws Exception {
        assumeTrue(CHROMIUM != null, "chromium is not on PATH (Debian package chromium; .ci/run installs it)");
        final Path page = dir.resolve("report.html");
        Files.writeString(page, HtmlReport.toHtml(SampleRuns.finished()), StandardCharsets.UTF_8);

        final Browser run = chromium(page.toUri() + "#verdict=FAIL&profile=core", "--dump-dom");

        assertThat(run.consoleLines()).isEmpty();
        assertThat(run.stdout()).contains("1 of 7 clauses shown");
        assertThat(run.stdout()).containsPattern("<tr class=\"clause\" id=\"clause-6.4.2\"[^>]*>");
        assertThat(run.stdout()).containsPattern("<tr class=\"clause\" id=\"clause-4.1.9\"[^>]*hidden");
    }

    @Test
    void shouldCatchAScriptErrorInTheBrowser() throws Exception {
        assumeTrue(CHROMIUM != null, "chromium is not on PATH (Debian package chromium; .ci/run installs it)");
        // The console check above must be able to fail: a page that throws is caught.
        final Path page = dir.resolve("broken.html");
        Files.writeString(page, "<!DOCTYPE html><p>x</p><script>throw new Error('deliberate');</script>");

        assertThat(chromium(page.toUri() + "", "--dump-dom").consoleLines())
                .anySatisfy(l -> assertThat(l).contains("deliberate"));
    }

    @Test
    void shouldRenderTheSummaryInAScreenshot() throws Exception {
        assumeTrue(CHROMIUM != null, "chromium is not on PATH (Debian package chromium; .ci/run installs it)");
        final Path page = dir.resolve("report.html");
        Files.writeString(page, HtmlReport.toHtml(SampleRuns.finished()), StandardCharsets.UTF_8);
        final Path shot = Path.of("target", "report-screenshot.png").toAbsolutePath();
        Files.deleteIfExists(shot);

        final Browser run = chromium(page.toUri() + "", "--screenshot=" + shot, "--window-size=1280,1400");

        assertThat(run.consoleLines()).isEmpty();
        assertThat(shot).exists();
        final byte[] png = Files.readAllBytes(shot);
        assertThat(png).startsWith(0x89, 'P', 'N', 'G');
        assertThat(png.length).as("a rendered page, not a blank one").isGreaterThan(20_000);
    }

    /** What one headless Chromium run printed. */
    private record Browser(String stdout, List<String> consoleLines) {}

    private Browser chromium(final String url, final String... extra) throws Exception {
        final Path profile = Files.createTempDirectory(dir, "chromium-profile");
        final List<String> cmd = new ArrayList<>(List.of(
                CHROMIUM.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-quic",
                "--no-first-run",
                "--user-data-dir=" + profile,
                "--enable-logging=stderr",
                "--v=0",
                "--virtual-time-budget=5000"));
        cmd.addAll(List.of(extra));
        cmd.add(url);
        final Path err = dir.resolve("chromium.err");
        final Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("chromium finished").isTrue();
        final String stderr = Files.readString(err);
        assertThat(p.exitValue()).as("chromium exit status; stderr: %s", stderr).isZero();
        // With --enable-logging=stderr Chromium prints every console message and uncaught error as a CONSOLE line.
        final List<String> console =
                stderr.lines().filter(l -> l.contains(":CONSOLE")).toList();
        return new Browser(out, console);
    }

    private static int count(final String s, final String part) {
        int n = 0;
        for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    private static Path onPath(final String name) {
        final String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (final String d : path.split(File.pathSeparator)) {
            final Path candidate = Path.of(d, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
