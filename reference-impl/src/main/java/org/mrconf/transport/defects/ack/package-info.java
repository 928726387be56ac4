/** Defects at {@link org.mrconf.transport.AckSeam}: what the sender does with ACKs and NACKs. */
package org.mrconf.transport.defects.ack;
