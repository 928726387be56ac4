/** Defects at {@link org.mrconf.transport.SchedulerSeam}: what is sent next, on which path, and what a timeout does. */
package org.mrconf.transport.defects.scheduler;
