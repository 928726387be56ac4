/**
 * Writing the test vectors under test-vectors/: the built-in tester scenarios that record a vector's stimulus
 * against the embedded reference, the sidecar and manifest writers, the sidecar schema check, and the replay of a
 * corpus against the reference in the configuration each vector needs. The {@code metaroce vectors} command calls it.
 */
package org.mrconf.authoring;
