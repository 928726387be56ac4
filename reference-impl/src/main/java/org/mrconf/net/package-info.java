/**
 * The seam between a transport engine and whatever carries its packets (the simulated fabric, UDP
 * sockets, raw Ethernet): a transmitter, a receiver with its wake-up deadline, and a clock.
 */
package org.mrconf.net;
