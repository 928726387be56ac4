/** Cases for spec section 4: encapsulation in UDP/IP, ports, ECN, MTU, and connection set-up and teardown. */
package org.mrconf.cases.encapsulation;
