/**
 * The one way the suite opens a file a user names ({@link org.mrconf.files.UserFiles}): regular files only, a size
 * limit for each kind of file, links followed only inside the folder they belong to, nothing written through a link.
 * It lives in the capture module because that is the lowest module every command that reads files shares (the codec
 * module below it imports the JDK only and reads no file).
 */
package org.mrconf.files;
