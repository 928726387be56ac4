package org.mrconf.pcap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.sun.jna.Native;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pcap4j.core.Pcaps;
import org.slf4j.LoggerFactory;

/**
 * Simulates a machine without libpcap. Pcap4J binds the library once per class loader, in a static initializer,
 * under the name in the system property {@code org.pcap4j.core.pcapLibName}; so this test loads our classes,
 * Pcap4J and JNA afresh in an isolated class loader while that property names a library that does not exist.
 */
class LibpcapMissingTest {

    private static final String LIB_NAME_PROPERTY = "org.pcap4j.core.pcapLibName";

    @TempDir
    Path dir;

    @Test
    void shouldExplainHowToInstallLibpcapWhenItIsMissing() throws Exception {
        Path capture = dir.resolve("ok.pcap");
        try (PcapWriter w = PcapWriter.create(capture)) {
            w.write(Frames.ipv4(1));
        }
        String previous = System.getProperty(LIB_NAME_PROPERTY);
        System.setProperty(LIB_NAME_PROPERTY, "mrconf-no-such-libpcap");
        try (URLClassLoader isolated = new URLClassLoader(
                new URL[] {
                    location(PcapWriter.class),
                    location(Pcaps.class),
                    location(Native.class),
                    location(LoggerFactory.class),
                    location(Class.forName("org.slf4j.simple.SimpleLogger"))
                },
                ClassLoader.getPlatformClassLoader())) {
            Class<?> writer = isolated.loadClass(PcapWriter.class.getName());
            Class<?> reader = isolated.loadClass(PcapReader.class.getName());
            Method create = writer.getMethod("create", Path.class);
            Method open = reader.getMethod("open", Path.class);

            // First use fails with UnsatisfiedLinkError, later ones with NoClassDefFoundError; both translate.
            assertMissingLibpcap(invoke(create, dir.resolve("a.pcap")));
            assertMissingLibpcap(invoke(create, dir.resolve("b.pcap")));
            assertMissingLibpcap(invoke(open, capture));
        } finally {
            if (previous == null) {
                System.clearProperty(LIB_NAME_PROPERTY);
            } else {
                System.setProperty(LIB_NAME_PROPERTY, previous);
            }
        }
    }

    private static void assertMissingLibpcap(Throwable thrown) {
        assertThat(thrown.getClass().getName()).as("%s", thrown).isEqualTo(PcapUnavailableException.class.getName());
        assertThat(thrown)
                .hasMessageStartingWith("libpcap not found: install it with `sudo apt-get install libpcap0.8`");
        assertThat(thrown.getCause()).isInstanceOf(LinkageError.class);
    }

    private static Throwable invoke(Method m, Object arg) {
        Throwable t = catchThrowable(() -> m.invoke(null, arg));
        assertThat(t).isInstanceOf(InvocationTargetException.class);
        return t.getCause();
    }

    private static URL location(Class<?> c) {
        return c.getProtectionDomain().getCodeSource().getLocation();
    }
}
