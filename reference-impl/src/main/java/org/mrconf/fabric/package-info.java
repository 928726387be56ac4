/**
 * A discrete-event, single-threaded, seeded network simulator: a virtual clock and event queue
 * ({@link org.mrconf.fabric.Simulator}), a fabric of hosts joined by rate-limited, queued, ECN-marking
 * links over parallel ECMP routes ({@link org.mrconf.fabric.Fabric}), and composable seeded impairments
 * ({@link org.mrconf.fabric.LinkImpairment}). Same seed and same inputs give the same event sequence.
 */
package org.mrconf.fabric;
