/** The test vectors under {@code test-vectors/}, run as conformance cases: one dynamic test per vector folder. */
package org.mrconf.cases.vectors;
