/** JMH benchmarks of the reference transport's per-packet hot paths. */
package org.mrconf.microbench;
