/**
 * Vector replay: reads, checks and replays the test vectors under {@code test-vectors/} (conformance checks as data, a
 * stimulus capture and a JSON sidecar per folder) against any device through the DUT interfaces. Adding a vector needs
 * no Java and no rebuild. {@code org.mrconf.cases.vectors} runs each vector as a case of a run.
 */
package org.mrconf.replay;
