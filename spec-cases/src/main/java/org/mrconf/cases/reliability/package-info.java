/**
 * Conformance cases of section 6: PSNs and windows, SACK state, loss detection, selective retransmission,
 * duplicates, timers and path health, with the DUT as receiver and as sender.
 */
package org.mrconf.cases.reliability;
