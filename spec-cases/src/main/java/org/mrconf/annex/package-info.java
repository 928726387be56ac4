/** The spec's generated parts: Annex C, worked examples of every packet type, made by the wire codec. */
package org.mrconf.annex;
