/**
 * Named legal variants of the reference, off by default: each takes a choice the Open Draft leaves open (Table 12-3)
 * that the standard configuration does not, and proves that the conformance cases accept it. The mirror image of
 * {@link org.mrconf.defect}.
 */
package org.mrconf.variant;
