/**
 * Self-validation: the suite run against the clean reference and against each deliberate defect of the reference's
 * catalogue, proving that every case can catch what its clauses forbid ({@code metaroce selftest}).
 */
package org.mrconf.selftest;
