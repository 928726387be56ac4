/** Reference endpoints wired onto the simulated fabric: the harness for end-to-end tests and benchmarks. */
package org.mrconf.sim;
