/**
 * The comparison baseline for benchmarks: a RoCEv2-style go-back-N requester and responder on one path,
 * with its own tiny packet format. It is not a MetaRoCE implementation and nothing in the conformance
 * suite tests against it; it exists so loss and multipath benchmarks can show what a single-path,
 * go-back-N transport does under the same fabric conditions.
 */
package org.mrconf.baseline;
