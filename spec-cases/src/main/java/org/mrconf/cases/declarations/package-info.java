/**
 * Conformance cases of the device's declarations (section 12.1): its declaration file and its {@code hello} agree, and what
 * it declares is within the ranges the draft allows.
 */
package org.mrconf.cases.declarations;
