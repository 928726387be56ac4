/**
 * The conformance cases: JUnit Jupiter tests, each bound to the clauses it verifies with {@link
 * org.mrconf.cases.Verifies}, run by the suite's runner against whatever {@link
 * org.mrconf.cases.DeviceUnderTest} it installs, and reaching it only through the DUT interfaces.
 */
package org.mrconf.cases;
