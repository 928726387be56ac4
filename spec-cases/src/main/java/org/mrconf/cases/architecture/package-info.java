/** Cases for spec section 3: connections, paths and streams. */
package org.mrconf.cases.architecture;
