/** Conformance cases of the DUT's per-path reliability as a sender (spec section 6): timers, backoff, re-pathing. */
package org.mrconf.cases.reliability;
