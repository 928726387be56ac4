/** Runs the conformance cases against a device through the JUnit Platform Launcher and collects verdicts. */
package org.mrconf.runner;
