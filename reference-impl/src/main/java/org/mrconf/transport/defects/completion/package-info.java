/** Defects at {@link org.mrconf.transport.CompletionSeam}: the order and status of completions, and the responder side of a READ. */
package org.mrconf.transport.defects.completion;
