package org.mrconf.bundle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.HexFormat;
import org.mrconf.files.UserFileException;
import org.mrconf.files.UserFiles;

/**
 * Ed25519 signing keys with the JDK's own EdDSA provider (no extra library). Keys are stored as PEM: the private key
 * as PKCS#8 ({@code BEGIN PRIVATE KEY}), the public key as X.509 SubjectPublicKeyInfo ({@code BEGIN PUBLIC KEY}),
 * the forms OpenSSL reads, so a reviewer can check a bundle's signature without this suite.
 */
public final class SigningKeys {
    /** The JDK's name of the signature algorithm (RFC 8032 pure Ed25519). */
    public static final String ALGORITHM = "Ed25519";
    /** What {@link #writePair} appends to the private key's file name for the public key. */
    public static final String PUBLIC_SUFFIX = ".pub";

    private static final String PRIVATE_PEM = "PRIVATE KEY";
    private static final String PUBLIC_PEM = "PUBLIC KEY";
    private static final byte[] PAIR_PROBE = "metaroce key pair check".getBytes(StandardCharsets.US_ASCII);

    private SigningKeys() {}

    /** A fresh key pair from the JDK's default secure random source. */
    public static KeyPair generate() {
        try {
            return KeyPairGenerator.getInstance(ALGORITHM).generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK has no " + ALGORITHM + " (JDK 15 or newer is needed)", e);
        }
    }

    /**
     * Writes the private key to {@code privateFile} (owner read/write only where the file system allows) and the
     * public key beside it with {@link #PUBLIC_SUFFIX}. Refuses to replace either file: a lost signing key cannot be
     * recovered.
     */
    public static void writePair(final KeyPair pair, final Path privateFile) throws IOException {
        final Path publicFile = publicKeyFileOf(privateFile);
        for (final Path file : new Path[] {privateFile, publicFile}) {
            if (Files.exists(file)) {
                throw new FileAlreadyExistsException(file.toString(), null, "will not replace an existing key");
            }
        }
        final Path parent = privateFile.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.createFile(privateFile);
        try {
            Files.setPosixFilePermissions(privateFile, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException notPosix) {
            // A file system without POSIX permissions (Windows): the user's own ACLs apply.
        }
        Files.writeString(privateFile, pem(PRIVATE_PEM, pair.getPrivate().getEncoded()), StandardCharsets.US_ASCII);
        // CREATE_NEW does not follow a link: a dangling link at KEY.pub is refused, never written through.
        Files.writeString(
                publicFile,
                publicPem(pair.getPublic()),
                StandardCharsets.US_ASCII,
                java.nio.file.StandardOpenOption.CREATE_NEW,
                java.nio.file.StandardOpenOption.WRITE);
    }

    /** The public key file that belongs to a private key file. */
    public static Path publicKeyFileOf(final Path privateFile) {
        return privateFile.resolveSibling(privateFile.getFileName() + PUBLIC_SUFFIX);
    }

    /** The private key and its public key ({@code KEY} and {@code KEY.pub}), checked to belong together. */
    public static KeyPair readPair(final Path privateFile) {
        final PrivateKey privateKey = readPrivate(privateFile);
        final Path publicFile = publicKeyFileOf(privateFile);
        if (!Files.isRegularFile(publicFile)) {
            throw new BundleInputException(publicFile + ": missing; the public key must sit beside the private key "
                    + privateFile + " (metaroce bundle keygen writes both)");
        }
        final PublicKey publicKey = readPublic(publicFile);
        if (!verify(publicKey, PAIR_PROBE, sign(privateKey, PAIR_PROBE))) {
            throw new BundleInputException(publicFile + ": is not the public key of " + privateFile);
        }
        return new KeyPair(publicKey, privateKey);
    }

    /** Reads a PKCS#8 PEM Ed25519 private key. */
    public static PrivateKey readPrivate(final Path file) {
        final byte[] der = readPem(file, PRIVATE_PEM);
        try {
            return KeyFactory.getInstance(ALGORITHM).generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (GeneralSecurityException e) {
            throw new BundleInputException(file + ": not an " + ALGORITHM + " private key (" + e.getMessage() + ")");
        }
    }

    /** Reads an X.509 PEM Ed25519 public key. */
    public static PublicKey readPublic(final Path file) {
        return parsePublic(readPem(file, PUBLIC_PEM), file.toString());
    }

    /** Parses a public key from PEM text; {@code source} names it in errors. */
    public static PublicKey parsePublicPem(final String text, final String source) {
        return parsePublic(decodePem(text, PUBLIC_PEM, source), source);
    }

    /** The public key as PEM text. */
    public static String publicPem(final PublicKey key) {
        return pem(PUBLIC_PEM, key.getEncoded());
    }

    /** {@code SHA256:} and the hex SHA-256 of the key's DER encoding: short enough to read out, long enough to trust. */
    public static String fingerprint(final PublicKey key) {
        return "SHA256:" + HexFormat.of().formatHex(sha256(key.getEncoded()));
    }

    /** The 64-byte Ed25519 signature of {@code data}. Deterministic: the same key and data give the same bytes. */
    public static byte[] sign(final PrivateKey key, final byte[] data) {
        try {
            final Signature signature = Signature.getInstance(ALGORITHM);
            signature.initSign(key);
            signature.update(data);
            return signature.sign();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign with " + ALGORITHM, e);
        }
    }

    /** Whether {@code signature} is the key's signature of {@code data}; a malformed signature is simply false. */
    public static boolean verify(final PublicKey key, final byte[] data, final byte[] signature) {
        try {
            final Signature verifier = Signature.getInstance(ALGORITHM);
            verifier.initVerify(key);
            verifier.update(data);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    static byte[] sha256(final byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    private static PublicKey parsePublic(final byte[] der, final String source) {
        try {
            return KeyFactory.getInstance(ALGORITHM).generatePublic(new X509EncodedKeySpec(der));
        } catch (GeneralSecurityException e) {
            throw new BundleInputException(source + ": not an " + ALGORITHM + " public key (" + e.getMessage() + ")");
        }
    }

    private static byte[] readPem(final Path file, final String label) {
        final String text;
        try {
            // A key is a few hundred bytes: a FIFO, a device or a large file is refused before it is read.
            text = new String(UserFiles.readBytes(file, UserFiles.Kind.KEY), StandardCharsets.US_ASCII);
        } catch (UserFileException e) {
            throw new BundleInputException(e.getMessage() + " (expected a PEM key file)", e);
        }
        return decodePem(text, label, file.toString());
    }

    private static byte[] decodePem(final String text, final String label, final String source) {
        final String begin = "-----BEGIN " + label + "-----";
        final String end = "-----END " + label + "-----";
        final int from = text.indexOf(begin);
        final int to = text.indexOf(end);
        if (from < 0 || to < from) {
            throw new BundleInputException(source + ": no '" + begin + "' block; expected a PEM " + label.toLowerCase()
                    + " (metaroce bundle keygen writes one)");
        }
        try {
            return Base64.getMimeDecoder().decode(text.substring(from + begin.length(), to));
        } catch (IllegalArgumentException e) {
            throw new BundleInputException(source + ": the PEM " + label.toLowerCase() + " is not valid base64");
        }
    }

    private static String pem(final String label, final byte[] der) {
        final String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der);
        return "-----BEGIN " + label + "-----\n" + body + "\n-----END " + label + "-----\n";
    }
}
