/**
 * Conformance cases of protection (section 11): keys, access flags and bounds of regions, invalidation of regions in use,
 * and connections kept safe from packets of unknown connections and foreign sources.
 */
package org.mrconf.cases.protection;
