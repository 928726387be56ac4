/** The tables of the project's Markdown documents (the spec, the control protocol), read with commonmark-java. */
package org.mrconf.markdown;
