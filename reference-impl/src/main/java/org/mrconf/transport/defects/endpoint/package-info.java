/** Defects at {@link org.mrconf.transport.EndpointSeam}: the endpoint's own decisions: verbs, segmentation, and which received datagrams reach a connection. */
package org.mrconf.transport.defects.endpoint;
