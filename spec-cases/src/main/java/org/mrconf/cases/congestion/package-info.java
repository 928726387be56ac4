/** Conformance cases of the congestion profile (spec sections 8.2 and 10): ECN marks seen, counted and reacted to. */
package org.mrconf.cases.congestion;
