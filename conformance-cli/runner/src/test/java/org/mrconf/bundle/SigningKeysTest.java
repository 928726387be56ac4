package org.mrconf.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ed25519 keys: PEM round trip, OpenSSL's keys read, pairs checked, secrets kept private. */
class SigningKeysTest {
    private static final byte[] DATA = "manifest".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    @Test
    void shouldReadBackTheKeysItWrote() throws Exception {
        final KeyPair pair = SigningKeys.generate();
        final Path key = dir.resolve("vendor.key");
        SigningKeys.writePair(pair, key);

        final KeyPair read = SigningKeys.readPair(key);

        assertThat(read.getPublic()).isEqualTo(pair.getPublic());
        assertThat(SigningKeys.verify(read.getPublic(), DATA, SigningKeys.sign(read.getPrivate(), DATA)))
                .isTrue();
        assertThat(Files.getPosixFilePermissions(key)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(Files.readString(key)).startsWith("-----BEGIN PRIVATE KEY-----\n");
        assertThat(Files.readString(SigningKeys.publicKeyFileOf(key))).startsWith("-----BEGIN PUBLIC KEY-----\n");
    }

    @Test
    void shouldSignDeterministically() {
        final KeyPair pair = SigningKeys.generate();

        assertThat(SigningKeys.sign(pair.getPrivate(), DATA)).isEqualTo(SigningKeys.sign(pair.getPrivate(), DATA));
        assertThat(SigningKeys.sign(pair.getPrivate(), DATA)).hasSize(64);
    }

    @Test
    void shouldRefuseAPublicKeyOfAnotherPair() throws Exception {
        final Path key = dir.resolve("a.key");
        SigningKeys.writePair(SigningKeys.generate(), key);
        SigningKeys.writePair(SigningKeys.generate(), dir.resolve("b.key"));
        Files.copy(
                dir.resolve("b.key.pub"),
                SigningKeys.publicKeyFileOf(key),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);

        assertThatThrownBy(() -> SigningKeys.readPair(key))
                .isInstanceOf(BundleInputException.class)
                .hasMessage(SigningKeys.publicKeyFileOf(key) + ": is not the public key of " + key);
    }

    @Test
    void shouldNotVerifyAGarbledSignature() {
        final KeyPair pair = SigningKeys.generate();

        assertThat(SigningKeys.verify(pair.getPublic(), DATA, new byte[] {1, 2, 3}))
                .isFalse();
    }

    @Test
    void shouldReadAKeyThatOpensslMade() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/openssl")), "openssl is not installed at /usr/bin/openssl");
        final Path key = dir.resolve("openssl.key");
        run("/usr/bin/openssl", "genpkey", "-algorithm", "ed25519", "-out", key.toString());
        run("/usr/bin/openssl", "pkey", "-in", key.toString(), "-pubout", "-out", key + ".pub");

        final KeyPair pair = SigningKeys.readPair(key);

        assertThat(SigningKeys.verify(pair.getPublic(), DATA, SigningKeys.sign(pair.getPrivate(), DATA)))
                .isTrue();
    }

    private static void run(final String... command) throws Exception {
        final Process process =
                new ProcessBuilder(command).redirectErrorStream(true).start();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue())
                .as(new String(process.getInputStream().readAllBytes()))
                .isZero();
    }
}
