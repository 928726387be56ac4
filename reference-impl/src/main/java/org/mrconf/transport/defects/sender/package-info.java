/**
 * Defects at {@link org.mrconf.transport.SenderSeam}: a sending path's PSNs, timers, RTT estimate and congestion
 * windows.
 */
package org.mrconf.transport.defects.sender;
