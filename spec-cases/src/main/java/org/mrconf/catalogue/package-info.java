/**
 * The clause catalogue: every numbered clause of the MetaRoCE Open Draft as data, loaded from JSON and
 * checked against the spec document, so that each test can name the clause it verifies.
 */
package org.mrconf.catalogue;
