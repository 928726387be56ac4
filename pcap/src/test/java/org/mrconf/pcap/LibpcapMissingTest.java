package org.mrconf.pcap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.sun.jna.Native;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pcap4j.core.Pcaps;
import org.slf4j.LoggerFactory;

/**
 * Simulates a machine without libpcap. Pcap4J binds the library once per class loader, in a static initializer,
 * under the name in the system property {@code org.pcap4j.core.pcapLibName}; so these tests load our classes afresh
 * in an isolated class loader: with Pcap4J and JNA while that property names a library that does not exist, or
 * without Pcap4J and JNA at all.
 */
class LibpcapMissingTest {

    private static final String LIB_NAME_PROPERTY = "org.pcap4j.core.pcapLibName";

    @TempDir
    Path dir;

    /** Only the raw-Ethernet link asks for libpcap ({@link Libpcap#version()}); it says how to install it. */
    @Test
    void shouldExplainHowToInstallLibpcapWhenItIsMissing() throws Exception {
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
            Method version = isolated.loadClass(Libpcap.class.getName()).getMethod("version");

            // First use fails with UnsatisfiedLinkError, later ones with NoClassDefFoundError; both translate.
            assertMissingLibpcap(invoke(version));
            assertMissingLibpcap(invoke(version));
            // Capture files are still read and written: they never touch libpcap.
            assertWritesAndReadsCaptures(isolated);
        } finally {
            if (previous == null) {
                System.clearProperty(LIB_NAME_PROPERTY);
            } else {
                System.setProperty(LIB_NAME_PROPERTY, previous);
            }
        }
    }

    /** With neither Pcap4J nor JNA on the class path, pcap and pcapng files are written and read as ever. */
    @Test
    void shouldWriteAndReadCapturesWithoutPcap4jOrJna() throws Exception {
        try (URLClassLoader isolated = new URLClassLoader(
                new URL[] {location(PcapWriter.class), location(org.mrconf.wire.AckPacket.class)},
                ClassLoader.getPlatformClassLoader())) {
            assertThat(catchThrowable(() -> isolated.loadClass(Pcaps.class.getName())))
                    .as("Pcap4J is hidden")
                    .isInstanceOf(ClassNotFoundException.class);
            assertWritesAndReadsCaptures(isolated);
        }
    }

    private void assertWritesAndReadsCaptures(ClassLoader loader) throws Exception {
        Class<?> writer = loader.loadClass(PcapWriter.class.getName());
        Class<?> reader = loader.loadClass(PcapReader.class.getName());
        Class<?> format = loader.loadClass(CaptureFormat.class.getName());
        Method create = writer.getMethod("create", Path.class, format);
        Method writeRaw = writer.getMethod("writeRaw", byte[].class, java.time.Instant.class);
        Method readAll = reader.getMethod("readAll", Path.class);
        for (String name : List.of("PCAP_NANO", "PCAP_MICRO", "PCAPNG")) {
            Path file = dir.resolve(name + "-" + System.nanoTime());
            @SuppressWarnings({"unchecked", "rawtypes"})
            Object f = Enum.valueOf((Class) format, name);
            try (AutoCloseable w = (AutoCloseable) create.invoke(null, file, f)) {
                writeRaw.invoke(w, FrameCodec.encode(Frames.ipv4(1)), java.time.Instant.ofEpochSecond(1));
                writeRaw.invoke(w, FrameCodec.encode(Frames.ipv6(9000)), java.time.Instant.ofEpochSecond(2));
            }
            assertThat((List<?>) readAll.invoke(null, file)).as(name).hasSize(2);
            assertThat(PcapReader.readAll(file).get(1).bytes()).isEqualTo(FrameCodec.encode(Frames.ipv6(9000)));
        }
    }

    private static void assertMissingLibpcap(Throwable thrown) {
        assertThat(thrown.getClass().getName()).as("%s", thrown).isEqualTo(PcapUnavailableException.class.getName());
        assertThat(thrown)
                .hasMessageStartingWith("libpcap not found: install it with `sudo apt-get install libpcap0.8`");
        assertThat(thrown.getCause()).isInstanceOf(LinkageError.class);
    }

    private static Throwable invoke(Method m) {
        Throwable t = catchThrowable(() -> m.invoke(null));
        assertThat(t).isInstanceOf(InvocationTargetException.class);
        return t.getCause();
    }

    private static URL location(Class<?> c) {
        return c.getProtectionDomain().getCodeSource().getLocation();
    }
}
