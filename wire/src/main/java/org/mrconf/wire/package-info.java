/**
 * The MetaRoCE Open Draft wire codec (spec section 5): allocation-free flyweights, encoder and
 * validating decoder for every packet type, plus immutable packet records for tests and tools.
 */
package org.mrconf.wire;
