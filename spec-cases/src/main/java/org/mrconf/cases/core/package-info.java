/** Conformance cases of the core profile: placement, matching, reading, acknowledgement. */
package org.mrconf.cases.core;
