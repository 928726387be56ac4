/**
 * The report files of a conformance run (report.json, report.html, junit.xml, ocptv.jsonl and the evidence pcap
 * slices), all written from one {@link org.mrconf.verdict.RunRecord}; writers never re-derive a verdict.
 */
package org.mrconf.report;
