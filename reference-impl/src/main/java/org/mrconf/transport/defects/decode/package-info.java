/** Defects at {@link org.mrconf.transport.DecodeSeam}: how a received packet's bytes are judged before the endpoint acts on it. */
package org.mrconf.transport.defects.decode;
