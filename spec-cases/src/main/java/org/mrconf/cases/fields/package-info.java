/** Conformance cases of invalid field values (spec clause 5.6.5, Table 5-13): one action and one counter each. */
package org.mrconf.cases.fields;
