package org.mrconf.transport;

import java.util.ArrayList;
import java.util.List;

/** What the parts of one endpoint share: its configuration, counters, regions and connections. */
final class EndpointState {
    final EndpointConfig config;
    final Counters counters = new Counters();
    final IntObjectMap<MemoryRegion> regions = new IntObjectMap<>(64);
    final IntObjectMap<Connection> connections = new IntObjectMap<>(64);
    /** The same connections as a list, so timers can walk them without iterator garbage. */
    final List<Connection> connectionList = new ArrayList<>();

    /** What packets may make the receive side allocate. */
    final StateBudget budget;

    /** The decisions the spec fixes, as this endpoint's parts take them (the spec's own unless defects are set). */
    final TransportSeams seams;

    EndpointState(final EndpointConfig config) {
        this.config = config;
        this.seams = config.seams();
        this.budget = new StateBudget(config.receiveStateBudgetBytes());
    }
}
