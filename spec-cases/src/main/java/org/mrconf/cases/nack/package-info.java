/** Conformance cases of the DUT as a sender that receives NACKs (spec section 9): what a NACK does to its work request. */
package org.mrconf.cases.nack;
