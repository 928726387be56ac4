/**
 * Passive conformance analysis: rebuilds connections, paths and streams from a capture of two implementations
 * talking to each other, and judges every wire-observable clause it can for each end, with frame numbers as evidence.
 */
package org.mrconf.analyze;
