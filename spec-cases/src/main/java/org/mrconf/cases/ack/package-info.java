/**
 * Conformance cases of the DUT's acknowledgements (section 8.1): what an ACK reports, when it is sent, on which path and
 * with which entropy.
 */
package org.mrconf.cases.ack;
