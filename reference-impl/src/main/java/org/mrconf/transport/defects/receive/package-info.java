/** Defects at {@link org.mrconf.transport.ReceiveSeam}: the receive path of data packets and READ requests, and the ACKs it answers with. */
package org.mrconf.transport.defects.receive;
