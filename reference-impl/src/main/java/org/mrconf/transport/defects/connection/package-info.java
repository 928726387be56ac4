/** Defects at {@link org.mrconf.transport.ConnectionSeam}: a connection's own state, its peers and its refusals. */
package org.mrconf.transport.defects.connection;
