/**
 * {@code metaroce explore}: seeded random legal programs (WRITE, WRITE_WITH_IMMEDIATE, SEND into posted receives, and
 * READ, either way) with seeded network impairments inside the draft's envelope, run against any device as test
 * vectors, every packet the device sends judged by the per-clause checks of {@code analyze} and the end state by the
 * program's own model, and a violation shrunk into a smallest test vector that replays.
 */
package org.mrconf.explore;
