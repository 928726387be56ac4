/** Conformance cases of completion order (spec section 7.5) and local access (clause 11.1.6). */
package org.mrconf.cases.ordering;
