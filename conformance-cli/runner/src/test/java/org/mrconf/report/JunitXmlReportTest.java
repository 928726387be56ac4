package org.mrconf.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** junit.xml maps verdicts as documented, carries the device's strings intact, and leaks nothing of the host. */
class JunitXmlReportTest {
    @Test
    void shouldMapEachVerdictToWhatJunitCanSay() throws Exception {
        final Document doc = parse(JunitXmlReport.toXml(SampleRuns.finished()));
        final Element suite = doc.getDocumentElement();
        assertThat(suite.getAttribute("tests")).isEqualTo("8");
        assertThat(suite.getAttribute("failures")).isEqualTo("1");
        assertThat(suite.getAttribute("errors")).isEqualTo("1");
        assertThat(suite.getAttribute("skipped")).isEqualTo("3");

        final Map<String, String> outcome = new LinkedHashMap<>();
        final NodeList cases = doc.getElementsByTagName("testcase");
        for (int i = 0; i < cases.getLength(); i++) {
            final Element c = (Element) cases.item(i);
            final Element child = firstElement(c);
            outcome.put(
                    c.getAttribute("name"),
                    child == null || child.getTagName().equals("system-out") ? "pass" : child.getTagName());
        }
        assertThat(outcome)
                .containsExactly(
                        Map.entry("outOfOrderWrite", "pass"),
                        Map.entry("resendsExactlyTheMissingPacket", "failure"),
                        Map.entry("ecnMarkSlowsTheSender", "pass"),
                        Map.entry("rtoBackoff", "skipped"),
                        Map.entry("readReturnsRegionBytes", "skipped"),
                        Map.entry("truncatedPacketIsDropped", "error"),
                        Map.entry("overIpv6", "pass"),
                        Map.entry("overIpv4", "skipped"));
        final Element inconclusive =
                (Element) doc.getElementsByTagName("skipped").item(0);
        assertThat(inconclusive.getAttribute("message")).startsWith("INCONCLUSIVE: ");
        final Element na = (Element) doc.getElementsByTagName("skipped").item(1);
        assertThat(na.getAttribute("message")).startsWith("NOT_APPLICABLE: ");
        // A clause with a test purpose not exercised says so in the suite properties.
        final Map<String, String> properties = new LinkedHashMap<>();
        final NodeList nodes = doc.getElementsByTagName("property");
        for (int i = 0; i < nodes.getLength(); i++) {
            final Element p = (Element) nodes.item(i);
            properties.put(p.getAttribute("name"), p.getAttribute("value"));
        }
        assertThat(properties)
                .containsEntry("metaroce.clause.4.1.6.verdict", "PASS")
                .containsEntry("metaroce.clause.4.1.6.label", "PASS (partial)")
                .containsEntry(
                        "metaroce.clause.4.1.6.notExercised",
                        "UdpChecksumCase.overIpv4 (NOT_APPLICABLE: " + SampleRuns.LINK_CANNOT
                                + "needs an IPv4 link that builds whole frames with chosen UDP checksums (raw"
                                + " Ethernet))")
                .doesNotContainKey("metaroce.clause.6.4.2.label")
                .doesNotContainKey("metaroce.clause.5.1.3.label")
                .doesNotContainKey("metaroce.clause.5.2.6.notExercised");
    }

    @Test
    void shouldCarryClausesAndVerdictOfEachCaseAsProperties() throws Exception {
        final Map<String, String> props = properties(parse(JunitXmlReport.toXml(SampleRuns.finished())));

        assertThat(props)
                .containsEntry(
                        "metaroce.case.SelectiveRetransmissionCase.resendsExactlyTheMissingPacket.clauses",
                        "4.1.9,6.4.2")
                .containsEntry(
                        "metaroce.case.SelectiveRetransmissionCase.resendsExactlyTheMissingPacket.verdict", "FAIL")
                .containsEntry("metaroce.case.CongestionCase.ecnMarkSlowsTheSender.verdict", "WARN")
                .containsEntry("metaroce.status", "complete");
        assertThat(props.keySet()).as("no host system property").allMatch(k -> k.startsWith("metaroce."));
    }

    @Test
    void shouldCarryClausesAndVerdictOnEachTestcase() throws Exception {
        final Document doc = parse(JunitXmlReport.toXml(SampleRuns.finished()));
        final Map<String, Element> byName = testcases(doc);

        final Element failed = byName.get("resendsExactlyTheMissingPacket");
        assertThat(failed.getAttribute("group")).isEqualTo("4.1.9,6.4.2");
        assertThat(text(failed, "system-out"))
                .startsWith("metaroce.verdict: FAIL\nmetaroce.clauses: 4.1.9 (MUST multipath, clause FAIL), 6.4.2"
                        + " (MUST core, clause FAIL)");
        assertThat(text(byName.get("outOfOrderWrite"), "system-out"))
                .isEqualTo("metaroce.verdict: PASS\nmetaroce.clauses: 6.4.2 (MUST core, clause FAIL)");
        assertThat(text(byName.get("overIpv6"), "system-out")).contains("4.1.6 (MUST core, clause PASS (partial))");
        assertThat(text(byName.get("ecnMarkSlowsTheSender"), "system-out"))
                .startsWith("metaroce.verdict: WARN\n")
                .contains("WARN (a SHOULD clause not met; not a failure): rate after the mark");
        assertThat(text(byName.get("rtoBackoff"), "system-out")).startsWith("metaroce.verdict: INCONCLUSIVE\n");
    }

    @Test
    void shouldNotSplitAVectorIdAtItsLastDot() throws Exception {
        final Map<String, Element> byName = testcases(parse(JunitXmlReport.toXml(SampleRuns.withNumbers())));

        final Element vector = byName.get("10.1.1/dut-path-window-halves-on-ce");
        assertThat(vector).as("the vector's whole id as its name").isNotNull();
        assertThat(vector.getAttribute("classname")).isEqualTo("vector");
        assertThat(vector.getAttribute("group")).isEqualTo("6.4.2");
        assertThat(byName.get("backsOffFromTheInitialRtoToTheMaximum").getAttribute("classname"))
                .isEqualTo("TimerCase");
    }

    @Test
    void shouldDecodeTheFailuresPacketsUnderTheDissectorsNames() throws Exception {
        final Element failed =
                testcases(parse(JunitXmlReport.toXml(SampleRuns.finished()))).get("resendsExactlyTheMissingPacket");

        // The sample packets are shorter than a header: decoded, they say so, once.
        assertThat(text(failed, "failure"))
                .contains(
                        "tester->dut malformed [packet shorter than its header and trailer (12 bytes)] (tester: WRITE path=1"
                                + " psn=7 len=4)");
    }

    private static Map<String, Element> testcases(final Document doc) {
        final Map<String, Element> out = new LinkedHashMap<>();
        final NodeList cases = doc.getElementsByTagName("testcase");
        for (int i = 0; i < cases.getLength(); i++) {
            final Element c = (Element) cases.item(i);
            out.put(c.getAttribute("name"), c);
        }
        return out;
    }

    private static String text(final Element parent, final String tag) {
        final NodeList nodes = parent.getElementsByTagName(tag);
        return nodes.getLength() == 0 ? null : nodes.item(0).getTextContent();
    }

    @Test
    void shouldKeepHostileStringsIntactAndInert() throws Exception {
        final Document doc = parse(JunitXmlReport.toXml(SampleRuns.finished()));
        final String vendor = properties(doc).get("metaroce.dut.vendor");

        // Everything survives except the controls XML cannot carry, which become visible escapes.
        assertThat(vendor)
                .isEqualTo(("Acme " + SampleRuns.HOSTILE)
                        .replace("\u0007", "\\u0007")
                        .replace("\u001b", "\\u001B"));
        assertThat(doc.getElementsByTagName("script").getLength()).isZero();
    }

    @Test
    void shouldMarkAnInterruptedRun() throws Exception {
        final Document doc = parse(JunitXmlReport.toXml(SampleRuns.interrupted()));

        assertThat(doc.getDocumentElement().getAttribute("name")).endsWith("[interrupted]");
        assertThat(properties(doc))
                .containsEntry("metaroce.status", "interrupted")
                .containsEntry("metaroce.interrupted", "true");
        assertThat(properties(parse(JunitXmlReport.toXml(SampleRuns.running()))))
                .containsEntry("metaroce.status", "running");
    }

    private static Map<String, String> properties(final Document doc) {
        final Map<String, String> out = new LinkedHashMap<>();
        final NodeList props = doc.getElementsByTagName("property");
        for (int i = 0; i < props.getLength(); i++) {
            final Element p = (Element) props.item(i);
            out.put(p.getAttribute("name"), p.getAttribute("value"));
        }
        return out;
    }

    private static Element firstElement(final Element parent) {
        for (var n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                return e;
            }
        }
        return null;
    }

    private static Document parse(final String xml) throws Exception {
        final DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }
}
