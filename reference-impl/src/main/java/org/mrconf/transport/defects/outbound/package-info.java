/** Defects at {@link org.mrconf.transport.OutboundSeam}: what the reference writes into the packets it sends. */
package org.mrconf.transport.defects.outbound;
