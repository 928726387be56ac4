/**
 * Conformance cases of section 7: placement on arrival, WRITE, SEND matching, READ and completions, each observed
 * through the control channel while packets are still missing.
 */
package org.mrconf.cases.placement;
