/**
 * The verdict model of a conformance run (ISO/IEC 9646 style): case and clause verdicts and the run record that
 * every report writer reads. Writers depend on this package, never on the cases or the runner.
 */
package org.mrconf.verdict;
