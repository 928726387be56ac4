/**
 * Test vectors: conformance checks as data (a stimulus capture and a JSON sidecar per folder under
 * {@code test-vectors/}), read, checked and replayed against any device through the DUT interfaces. Adding one needs
 * no Java and no rebuild.
 */
package org.mrconf.vectors;
