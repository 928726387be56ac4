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
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Evidence;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;
import org.mrconf.wire.AckPacket;
import org.mrconf.wire.CommonHeader;
import org.mrconf.wire.DataPacket;

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
            assertThat(urls.group(1))
                    .as("a link or source: a file of the run folder or a place on the page")
                    .matches("(\\./|#).*");
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

    @Test
    void shouldStateTheVerdictWithItsReasonBeforeAnythingElse() {
        final String html = HtmlReport.toHtml(SampleRuns.finished());

        final int verdict = html.indexOf("<section id=\"verdict\" class=\"headline v-FAIL\">");
        assertThat(verdict).as("the headline").isPositive();
        assertThat(html.substring(verdict, html.indexOf("</section>", verdict)))
                .contains("NOT CONFORMANT</span> for the claimed profiles core, multipath")
                .containsPattern(
                        "2 MUST clauses failed: <a href=\"#clause-4.1.9\">4.1.9</a>, <a href=\"#clause-6.4.2\">")
                .containsPattern("not decided[^<]*: <a href=\"#clause-5.1.3\">5.1.3</a>, <a href=\"#clause-6.5.1\">")
                .contains("Not exercised in this run (1 clause")
                .contains("<a href=\"#clause-4.1.6\">4.1.6</a> <span class=\"partial\">(partial)</span>");
        assertThat(verdict).isLessThan(html.indexOf("id=\"failures\""));
        assertThat(html.indexOf("id=\"failures\"")).isLessThan(html.indexOf("id=\"undecided\""));
        assertThat(html.indexOf("id=\"undecided\"")).isLessThan(html.indexOf("id=\"summary\""));
        assertThat(html.indexOf("id=\"summary\"")).isLessThan(html.indexOf("id=\"run\"") + 1_000_000);
    }

    @Test
    void shouldCallAPassingRunConformantAndNotCountNotApplicableAsVerified() {
        final RunRecord finished = SampleRuns.finished();
        final RunRecord clean = SampleRuns.withCases(
                finished,
                finished.cases().stream()
                        .filter(c -> c.verdict() == Verdict.PASS || c.verdict() == Verdict.NOT_APPLICABLE)
                        .filter(c -> !c.caseId().startsWith("UdpChecksumCase.overIpv4"))
                        .toList());

        final String html = HtmlReport.toHtml(clean);

        assertThat(html)
                .contains("<section id=\"verdict\" class=\"headline v-PASS\">")
                .contains("CONFORMANT</span> for the claimed profiles")
                .contains("Every one of the 2 applicable clauses passed")
                .contains("2 clauses decided on the device (pass, warn or fail), 0 not decided, 1 not applicable"
                        + " (never counted as verified)")
                .doesNotContain("id=\"failures\"");
    }

    @Test
    void shouldShowEachFailureOnceWithEveryClauseItTouches() {
        final String html = HtmlReport.toHtml(SampleRuns.finished());
        final String id = "SelectiveRetransmissionCase.resendsExactlyTheMissingPacket";

        assertThat(count(html, "<article class=\"case v-FAIL\" id=\"case-" + id + "\">"))
                .as("the failure shown once, not under each clause")
                .isEqualTo(1);
        assertThat(count(html, "<svg"))
                .as("one ladder diagram per case with packets")
                .isEqualTo(1);
        final int at = html.indexOf("id=\"case-" + id + "\"");
        assertThat(html.substring(at, html.indexOf("</article>", at)))
                .contains(
                        "Clauses: <a href=\"#clause-4.1.9\">4.1.9</a> <span class=\"level\">MUST \u00b7 multipath</span>,"
                                + " <a href=\"#clause-6.4.2\">6.4.2</a> <span class=\"level\">MUST \u00b7 core</span>");
        assertThat(count(html, "<a href=\"#case-" + id + "\">"))
                .as("the clause rows and the case row link to it")
                .isEqualTo(3);
    }

    @Test
    void shouldPrintExpectedAndActualOnceAndNoWordTwice() {
        final String html = HtmlReport.toHtml(SampleRuns.finished());

        // The failure's message says "expected: 1 but was: 2": the values are not printed a second time.
        final int at = html.indexOf("id=\"case-SelectiveRetransmissionCase");
        assertThat(html.substring(at, html.indexOf("</article>", at))).doesNotContain("<dl class=\"values\">");
        // The warning's message does not contain "<= 50 percent": the values are printed.
        final int warn = html.indexOf("id=\"case-CongestionCase.ecnMarkSlowsTheSender\"");
        assertThat(html.substring(warn, html.indexOf("</article>", warn))).contains("<dl class=\"values\">");
        assertThat(HtmlReport.undoubled("BAD_CRC BAD_CRC (5.6.2): crc32c = 0x1 (60 bytes, sent on purpose)"))
                .isEqualTo("BAD_CRC (5.6.2): crc32c = 0x1 (60 bytes, sent on purpose)");
    }

    @Test
    void shouldDecodeEvidenceWithTheDissectorsFieldNames() {
        final CommonHeader header = CommonHeader.of(0x20002, 1, 7);
        final byte[] write = DataPacket.write(header, 0, 1, 4, 0, 99, 0x1000, 0x42, new byte[] {1, 2, 3, 4})
                .toBytes();
        final byte[] ack =
                AckPacket.of(CommonHeader.of(0x20002, 0, 4), 99, 0, 4000, 1).toBytes();
        final byte[] badCrc = write.clone();
        badCrc[badCrc.length - 1] ^= 0x5a;
        final RunRecord finished = SampleRuns.finished();
        final List<CaseResult> cases = new ArrayList<>(finished.cases());
        final CaseResult failing = cases.get(1);
        cases.set(
                1,
                SampleRuns.withEvidence(
                        new CaseResult(
                                failing.caseId(),
                                failing.title(),
                                failing.clauses(),
                                failing.kind(),
                                failing.verdict(),
                                "expected a packet matching ACK, path 1, got 0 of 1 received:\n  #5 from :54796 "
                                        + new AckPacket(CommonHeader.of(0x20002, 0, 4), 99, 0, 4000, new long[4]),
                                failing.startedAt(),
                                failing.durationNs(),
                                failing.evidence()),
                        new Evidence(
                                "",
                                "",
                                List.of(
                                        new Evidence.PacketRecord(1_000, PcapSlices.TESTER_TO_DUT, "x", hex(write)),
                                        new Evidence.PacketRecord(
                                                2_000,
                                                PcapSlices.TESTER_TO_DUT,
                                                "BAD_CRC BAD_CRC (5.6.2): crc32c",
                                                hex(badCrc)),
                                        new Evidence.PacketRecord(
                                                3_000, PcapSlices.DUT_TO_TESTER, ack.toString(), hex(ack))),
                                java.util.Optional.empty())));

        final String html = HtmlReport.toHtml(SampleRuns.withCases(finished, cases));

        assertThat(html)
                .contains("<code class=\"f\">metaroce.psn=7</code>")
                .contains("<code class=\"f\">metaroce.path_id=1</code>")
                .contains("<code class=\"f\">metaroce.remote_key=0x00000042</code>")
                .contains("<code class=\"f\">metaroce.crc32c.status=Bad</code>")
                .contains("<code class=\"f\">metaroce.sack.psn=5</code>")
                .contains("ACK metaroce.version=0x10 metaroce.flags=0x0000 metaroce.connection_id=0x00020002"
                        + " metaroce.path_id=0 metaroce.psn=4")
                .doesNotContain("AckPacket[")
                .doesNotContain("CommonHeader[")
                .doesNotContain("BAD_CRC BAD_CRC")
                .doesNotContain("version=16");
    }

    @Test
    void shouldShowOnlyWhatIsTrueForTheLink() {
        final RunRecord finished = SampleRuns.finished();
        final RunRecord.DutDescription d = finished.dut();
        final RunRecord.DutDescription embedded = new RunRecord.DutDescription(
                        "reference",
                        d.vendor(),
                        d.model(),
                        d.firmware(),
                        d.driver(),
                        d.profiles(),
                        d.optionalClauses(),
                        d.defects(),
                        d.parameters(),
                        "embedded")
                .withParameter("dut", "127.0.0.1:4796")
                .withParameter("tester", "127.0.0.1:4797");
        final RunRecord inMemory = new RunRecord(
                finished.suiteVersion(),
                finished.suiteCommit(),
                finished.specVersion(),
                finished.commandLine(),
                embedded,
                finished.startedAt(),
                finished.finishedAt(),
                false,
                finished.selection(),
                finished.cases(),
                finished.clauses());

        final String html = HtmlReport.toHtml(inMemory);

        assertThat(html).doesNotContain("127.0.0.1").contains("in-memory link to the embedded reference");
        assertThat(HtmlReport.linkText(new RunRecord.DutDescription(
                        "udp://10.0.0.2:4796",
                        "",
                        "",
                        "",
                        "",
                        List.of(),
                        List.of(),
                        List.of(),
                        java.util.Map.of("dut", "10.0.0.2:4796", "tester", "10.0.0.1:50000"),
                        "udp")))
                .isEqualTo("udp, tester 10.0.0.1:50000 \u2192 device 10.0.0.2:4796");
    }

    @Test
    void shouldPutTheVerdictAndTheFirstFailureOnTheFirstScreen() throws Exception {
        assumeTrue(CHROMIUM != null, "chromium is not on PATH (Debian package chromium; .ci/run installs it)");
        final String html = HtmlReport.toHtml(SampleRuns.finished());
        final Path page = dir.resolve("report.html");
        Files.writeString(page, html, StandardCharsets.UTF_8);
        final Path shot = Path.of("target", "report-failing-first-screen.png").toAbsolutePath();
        Files.deleteIfExists(shot);

        final Browser screenshot = chromium(page.toUri() + "", "--screenshot=" + shot, "--window-size=1280,800");

        assertThat(screenshot.consoleLines()).isEmpty();
        assertThat(shot).exists();
        assertThat(Files.size(shot)).as("a rendered page, not a blank one").isGreaterThan(20_000);
        // The same page, measured: the test's copy appends one script that writes where the headline and the first
        // failure sit into the DOM, which --dump-dom then prints.
        final Path measured = dir.resolve("measured.html");
        Files.writeString(
                measured,
                html.replace(
                        "</body>",
                        "<script>(function(){var v=document.getElementById('verdict').getBoundingClientRect();"
                                + "var f=document.querySelector('#failures article.case h3').getBoundingClientRect();"
                                + "var m=document.querySelector('#failures article.case pre.message')"
                                + ".getBoundingClientRect();"
                                + "document.body.setAttribute('data-first-screen',"
                                + "[Math.round(v.top),Math.round(v.bottom),Math.round(f.top),Math.round(f.bottom),"
                                + "Math.round(m.top),window.innerHeight].join(','));})();</script></body>"),
                StandardCharsets.UTF_8);

        final Browser run = chromium(measured.toUri() + "", "--dump-dom", "--window-size=1280,800");

        assertThat(run.consoleLines()).isEmpty();
        final Matcher m = Pattern.compile("data-first-screen=\"(\\d+),(\\d+),(\\d+),(\\d+),(\\d+),(\\d+)\"")
                .matcher(run.stdout());
        assertThat(m.find())
                .as("the measuring script ran: %s", run.stdout().length())
                .isTrue();
        final int height = Integer.parseInt(m.group(6));
        assertThat(Integer.parseInt(m.group(2)))
                .as("the headline ends on the first screen")
                .isLessThan(height);
        assertThat(Integer.parseInt(m.group(4)))
                .as("the first failure's title is on the first screen")
                .isLessThan(height);
        assertThat(Integer.parseInt(m.group(5)))
                .as("the first failure's reason starts on the first screen")
                .isLessThan(height);
        final String dom = run.stdout();
        assertThat(dom.indexOf("NOT CONFORMANT")).isLessThan(dom.indexOf("SelectiveRetransmissionCase"));
    }

    @Test
    void shouldFilterTheCasesTable() throws Exception {
        assumeTrue(CHROMIUM != null, "chromium is not on PATH (Debian package chromium; .ci/run installs it)");
        final Path page = dir.resolve("report.html");
        Files.writeString(page, HtmlReport.toHtml(SampleRuns.finished()), StandardCharsets.UTF_8);

        final Browser all = chromium(page.toUri() + "", "--dump-dom");
        final Browser failed = chromium(page.toUri() + "#caseVerdict=FAIL", "--dump-dom");
        final Browser text = chromium(page.toUri() + "#case=udpchecksum", "--dump-dom");

        assertThat(all.stdout()).contains("8 of 8 cases and vectors shown");
        assertThat(failed.consoleLines()).isEmpty();
        assertThat(failed.stdout()).contains("1 of 8 cases and vectors shown");
        assertThat(text.stdout()).contains("2 of 8 cases and vectors shown");
    }

    private static String hex(final byte[] bytes) {
        return java.util.HexFormat.of().formatHex(bytes);
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
