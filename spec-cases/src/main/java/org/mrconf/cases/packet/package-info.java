/** Cases for spec section 5: header layouts, fields, lengths, CRC, versions and the order of receive checks. */
package org.mrconf.cases.packet;
