package org.mrconf.variant;

import java.util.List;
import org.mrconf.transport.EndpointConfig;

/**
 * One legal way to build the reference that its standard configuration does not take: a named {@link Variant}, or a
 * sampled {@link DeclarationSet}. The reference configured so declares what it is in {@code hello}, and every
 * conformance case must let it through.
 */
public interface LegalChoice {
    /** How the choice is named in reports, e.g. {@code ack-every-packet} or {@code declarations(windows 3/7, ...)}. */
    String label();

    /** The endpoint {@code standard} configured with this choice. */
    EndpointConfig configure(EndpointConfig standard);

    /** The clauses and sections (a prefix such as {@code 6.3} stands for its clauses) whose cases it bears on. */
    List<String> bearsOn();
}
