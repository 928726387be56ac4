package org.mrconf.bundle;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.mrconf.files.UserFiles;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.ErrorHandler;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * junit.xml says what report.json says, as a CI dashboard reads it: every case is one {@code testcase} whose outcome
 * is its verdict's (PASS and WARN pass, FAIL is a {@code failure}, ERROR an {@code error}, INCONCLUSIVE and
 * NOT_APPLICABLE are {@code skipped} naming the verdict), no other {@code testcase}, the {@code testsuite}'s counts
 * are report.json's, and the suite properties that repeat each case's and clause's verdict and the run's status
 * agree. The mapping is the report module's {@code JunitXmlReport}; docs/submitting.md states it for reviewers.
 */
final class JunitAgreement {
    static final String FILE = BundleLayout.JUNIT_XML;

    private JunitAgreement() {}

    static List<Problem> check(final Path junitXml, final RunRecord record) {
        final List<Problem> problems = new ArrayList<>();
        final Document doc;
        try (InputStream in =
                UserFiles.open(UserFiles.inside(UserFiles.folderOf(junitXml), junitXml), UserFiles.Kind.REPORT)) {
            doc = secureBuilder().parse(in);
        } catch (IOException | SAXException e) {
            problems.add(problem("cannot be read as XML (" + firstLine(e.getMessage())
                    + "), so it cannot be compared with report.json"));
            return problems;
        }
        final Element suite = doc.getDocumentElement();
        if (!"testsuite".equals(suite.getTagName())) {
            problems.add(problem("its root element is <" + suite.getTagName() + ">, not the <testsuite> report.json's"
                    + " cases belong in"));
            return problems;
        }
        checkTestcases(suite, record, problems);
        checkCounts(suite, record, problems);
        checkProperties(suite, record, problems);
        return problems;
    }

    /** What JUnit XML says for a verdict: the outcome, and for {@code skipped} the verdict its message names. */
    static String outcome(final Verdict verdict) {
        return switch (verdict) {
            case PASS, WARN -> "passed";
            case FAIL -> "failure";
            case ERROR -> "error";
            case INCONCLUSIVE, NOT_APPLICABLE -> "skipped (" + verdict.name() + ")";
        };
    }

    private static void checkTestcases(final Element suite, final RunRecord record, final List<Problem> problems) {
        final Map<String, List<Element>> found = new LinkedHashMap<>();
        final NodeList testcases = suite.getElementsByTagName("testcase");
        for (int i = 0; i < testcases.getLength(); i++) {
            final Element t = (Element) testcases.item(i);
            found.computeIfAbsent(key(t.getAttribute("classname"), t.getAttribute("name")), k -> new ArrayList<>())
                    .add(t);
        }
        for (final CaseResult c : record.cases()) {
            final List<Element> elements = found.remove(key(c.caseId()));
            final String want = outcome(c.verdict());
            if (elements == null) {
                problems.add(problem("case " + c.caseId() + " is missing (report.json has it, " + c.verdict() + ", "
                        + want + " in JUnit terms)"));
                continue;
            }
            if (elements.size() > 1) {
                problems.add(problem(
                        "case " + c.caseId() + " is listed " + elements.size() + " times; report.json lists it once"));
            }
            for (final Element t : elements) {
                final String got = outcomeOf(t);
                if (!got.equals(want)) {
                    problems.add(problem("case " + c.caseId() + " is " + got + " but report.json says " + c.verdict()
                            + ", which is " + want));
                }
            }
        }
        for (final List<Element> extra : found.values()) {
            final Element t = extra.get(0);
            problems.add(problem("case " + display(t) + " (" + outcomeOf(t) + ") is not a case of report.json"));
        }
    }

    /** The outcome a JUnit reader sees: a failure, error or skipped child, several of them joined, else passed. */
    private static String outcomeOf(final Element testcase) {
        final List<String> outcomes = new ArrayList<>();
        for (Node n = testcase.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                switch (e.getTagName()) {
                    case "failure", "error" -> outcomes.add(e.getTagName());
                    case "skipped" -> outcomes.add(skipped(e.getAttribute("message")));
                    default -> {}
                }
            }
        }
        return outcomes.isEmpty() ? "passed" : String.join(" + ", outcomes);
    }

    /** The writer starts a skip's message with the verdict, so INCONCLUSIVE and NOT_APPLICABLE stay apart. */
    private static String skipped(final String message) {
        for (final Verdict v : List.of(Verdict.INCONCLUSIVE, Verdict.NOT_APPLICABLE)) {
            if (message.startsWith(v.name() + ":")) {
                return "skipped (" + v.name() + ")";
            }
        }
        return "skipped";
    }

    private static void checkCounts(final Element suite, final RunRecord record, final List<Problem> problems) {
        final Map<Verdict, Integer> counts = new EnumMap<>(Verdict.class);
        record.cases().forEach(c -> counts.merge(c.verdict(), 1, Integer::sum));
        final Map<String, Integer> want = new LinkedHashMap<>();
        want.put("tests", record.cases().size());
        want.put("failures", counts.getOrDefault(Verdict.FAIL, 0));
        want.put("errors", counts.getOrDefault(Verdict.ERROR, 0));
        want.put(
                "skipped",
                counts.getOrDefault(Verdict.NOT_APPLICABLE, 0) + counts.getOrDefault(Verdict.INCONCLUSIVE, 0));
        want.forEach((attribute, count) -> {
            final String got = suite.hasAttribute(attribute) ? suite.getAttribute(attribute) : "nothing";
            if (!got.equals(String.valueOf(count))) {
                problems.add(problem("testsuite " + attribute + " says " + got + " but report.json gives " + count));
            }
        });
    }

    /** The suite properties repeat the verdicts; a dashboard that shows them must not see another story. */
    private static void checkProperties(final Element suite, final RunRecord record, final List<Problem> problems) {
        final Map<String, List<String>> properties = new LinkedHashMap<>();
        final NodeList nodes = suite.getElementsByTagName("property");
        for (int i = 0; i < nodes.getLength(); i++) {
            final Element p = (Element) nodes.item(i);
            properties
                    .computeIfAbsent(p.getAttribute("name"), k -> new ArrayList<>())
                    .add(p.getAttribute("value"));
        }
        final Map<String, String> want = new LinkedHashMap<>();
        want.put("metaroce.status", status(record));
        want.put("metaroce.interrupted", String.valueOf(record.interrupted()));
        for (final ClauseResult c : record.clauses()) {
            want.put("metaroce.clause." + c.clauseId() + ".verdict", c.verdict().name());
            if (c.notFullyExercised()) {
                want.put("metaroce.clause." + c.clauseId() + ".label", c.label());
                // Its text comes from the cases' reasons, which the writer may escape: only its presence is compared.
                if (properties.remove("metaroce.clause." + c.clauseId() + ".notExercised") == null) {
                    problems.add(problem("property metaroce.clause." + c.clauseId() + ".notExercised is missing"
                            + " (report.json lists " + c.notExercised().size() + " test purpose(s) not exercised)"));
                }
            }
        }
        for (final CaseResult c : record.cases()) {
            want.put("metaroce.case." + c.caseId() + ".verdict", c.verdict().name());
        }
        want.forEach((name, value) -> {
            final List<String> got = properties.remove(name);
            if (got == null) {
                problems.add(problem("property " + name + " is missing (report.json: " + value + ")"));
            } else if (got.size() > 1) {
                problems.add(problem("property " + name + " is listed " + got.size() + " times"));
            } else if (!got.get(0).equals(value)) {
                problems.add(problem("property " + name + " says " + got.get(0) + " but report.json says " + value));
            }
        });
        properties.forEach((name, values) -> {
            if (name.startsWith("metaroce.clause.") && (name.endsWith(".label") || name.endsWith(".notExercised"))) {
                problems.add(problem("property " + name + " (" + values.get(0) + ") says a clause was not fully"
                        + " exercised, but report.json lists no test purpose of it as not exercised"));
            } else if (name.endsWith(".verdict")
                    && (name.startsWith("metaroce.case.") || name.startsWith("metaroce.clause."))) {
                problems.add(problem("property " + name + " (" + values.get(0) + ") names a "
                        + (name.startsWith("metaroce.case.") ? "case" : "clause") + " that report.json does not"
                        + " list"));
            }
        });
    }

    /** The run status word every report writes: interrupted, complete, or running (never finished). */
    private static String status(final RunRecord record) {
        if (record.interrupted()) {
            return "interrupted";
        }
        return record.finishedAt().isPresent() ? "complete" : "running";
    }

    /** The writer splits a case id at its last dot into classname and name; "metaroce" when there is no dot. */
    private static String key(final String caseId) {
        final int dot = caseId.lastIndexOf('.');
        return dot < 0 ? key("metaroce", caseId) : key(caseId.substring(0, dot), caseId.substring(dot + 1));
    }

    private static String key(final String className, final String name) {
        return className + '\u0000' + name;
    }

    private static String display(final Element testcase) {
        return testcase.getAttribute("classname") + "." + testcase.getAttribute("name");
    }

    /**
     * A parser that reads only the document: no DOCTYPE at all (the writer never writes one, and it is where
     * external entities and entity expansion bombs come from), no external DTD, schema or XInclude.
     */
    private static DocumentBuilder secureBuilder() {
        try {
            final DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
            factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            factory.setXIncludeAware(false);
            factory.setExpandEntityReferences(false);
            factory.setNamespaceAware(false);
            final DocumentBuilder builder = factory.newDocumentBuilder();
            // Errors become the exception the caller reports, not "[Fatal Error]" lines on stderr.
            builder.setErrorHandler(new ErrorHandler() {
                @Override
                public void warning(final SAXParseException e) {}

                @Override
                public void error(final SAXParseException e) throws SAXException {
                    throw e;
                }

                @Override
                public void fatalError(final SAXParseException e) throws SAXException {
                    throw e;
                }
            });
            return builder;
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK's XML parser lacks a standard security feature", e);
        }
    }

    private static Problem problem(final String what) {
        return new Problem(SiblingReportsCheck.CHECK, FILE + ": " + what);
    }

    private static String firstLine(final String message) {
        return message == null ? "malformed" : message.lines().findFirst().orElse("malformed");
    }
}
