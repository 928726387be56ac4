package org.mrconf.bundle;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.mrconf.files.UserFileException;
import org.mrconf.files.UserFiles;

/**
 * The signature over the manifest and the hash of every file: nothing was added, removed or changed since the
 * signer made the bundle. Checked with the reviewer's key when given; with the bundle's own {@code signer.pub}
 * otherwise, which proves integrity but not who signed (the verifier says so).
 */
final class IntegrityCheck {
    private IntegrityCheck() {}

    /**
     * @param root    the bundle directory
     * @param trusted the reviewer's key for the signer, when given
     * @param notes   receives remarks that are not problems
     */
    static List<Problem> check(final Path root, final Optional<PublicKey> trusted, final List<String> notes)
            throws IOException {
        final List<Problem> problems = new ArrayList<>();
        final Path manifestFile = root.resolve(BundleLayout.MANIFEST);
        if (!Files.isRegularFile(manifestFile, LinkOption.NOFOLLOW_LINKS)) {
            problems.add(
                    new Problem("hash", BundleLayout.MANIFEST + " is missing: nothing in the bundle can be checked"));
            problems.add(new Problem("signature", "the bundle is not signed (" + BundleLayout.MANIFEST + " missing)"));
            return problems;
        }
        final byte[] manifestBytes;
        try {
            manifestBytes = UserFiles.readBytes(manifestFile, UserFiles.Kind.MANIFEST);
        } catch (UserFileException e) {
            problems.add(new Problem("hash", e.getMessage()));
            return problems;
        }
        checkSignature(root, manifestBytes, trusted, notes, problems);
        final BundleManifest manifest;
        try {
            manifest = BundleManifest.parse(manifestBytes, BundleLayout.MANIFEST);
        } catch (BundleInputException e) {
            problems.add(new Problem("hash", e.getMessage()));
            return problems;
        }
        checkHashes(root, manifest, problems);
        return problems;
    }

    private static void checkSignature(
            final Path root,
            final byte[] manifest,
            final Optional<PublicKey> trusted,
            final List<String> notes,
            final List<Problem> problems)
            throws IOException {
        final Path signatureFile = root.resolve(BundleLayout.SIGNATURE);
        if (!Files.isRegularFile(signatureFile, LinkOption.NOFOLLOW_LINKS)) {
            problems.add(new Problem(
                    "signature",
                    "the bundle is not signed (" + BundleLayout.SIGNATURE
                            + " missing; make it with bundle create --key)"));
            return;
        }
        final byte[] signature;
        try {
            signature = UserFiles.readBytes(signatureFile, UserFiles.Kind.KEY);
        } catch (UserFileException e) {
            problems.add(new Problem("signature", e.getMessage()));
            return;
        }
        Optional<PublicKey> embedded = Optional.empty();
        final Path signerFile = root.resolve(BundleLayout.SIGNER_KEY);
        if (Files.isRegularFile(signerFile, LinkOption.NOFOLLOW_LINKS)) {
            try {
                embedded = Optional.of(SigningKeys.parsePublicPem(
                        UserFiles.readUtf8(signerFile, UserFiles.Kind.KEY), BundleLayout.SIGNER_KEY));
            } catch (BundleInputException | UserFileException e) {
                problems.add(new Problem("signature", BundleLayout.SIGNER_KEY + " is not an Ed25519 public key"));
            }
        }
        if (trusted.isPresent()) {
            final PublicKey key = trusted.get();
            if (!SigningKeys.verify(key, manifest, signature)) {
                problems.add(new Problem(
                        "signature",
                        BundleLayout.SIGNATURE + " does not verify with the given --pubkey ("
                                + SigningKeys.fingerprint(key) + ")"
                                + embedded.filter(e -> !e.equals(key))
                                        .map(e -> "; the bundle names another signer, " + SigningKeys.fingerprint(e))
                                        .orElse("")));
            }
            return;
        }
        if (embedded.isEmpty()) {
            problems.add(new Problem(
                    "signature",
                    "no --pubkey given and the bundle has no " + BundleLayout.SIGNER_KEY + ": the signature cannot be"
                            + " checked"));
            return;
        }
        if (!SigningKeys.verify(embedded.get(), manifest, signature)) {
            problems.add(new Problem(
                    "signature",
                    BundleLayout.SIGNATURE + " does not verify with the bundle's own " + BundleLayout.SIGNER_KEY + " ("
                            + SigningKeys.fingerprint(embedded.get()) + ")"));
        } else {
            notes.add("the signature was checked with the bundle's own " + BundleLayout.SIGNER_KEY + " ("
                    + SigningKeys.fingerprint(embedded.get()) + "): that proves integrity, not who signed; pass"
                    + " --pubkey with the vendor's published key");
        }
    }

    private static void checkHashes(final Path root, final BundleManifest manifest, final List<Problem> problems)
            throws IOException {
        final Set<String> present = new HashSet<>();
        try {
            for (final Path file : BundleManifest.files(root)) {
                present.add(BundleManifest.relativePath(root, file));
            }
        } catch (BundleInputException e) {
            problems.add(new Problem("bundle", e.getMessage()));
            return;
        }
        manifest.sha256ByPath().forEach((path, expected) -> {
            final Path file = root.resolve(path);
            if (!present.contains(path)) {
                problems.add(new Problem("hash", path + " is listed in " + BundleLayout.MANIFEST + " but missing"));
                return;
            }
            try {
                final String actual = BundleManifest.sha256Hex(file);
                if (!actual.equals(expected)) {
                    problems.add(new Problem(
                            "hash",
                            path + " was changed: its SHA-256 is " + actual + ", the manifest says " + expected));
                }
            } catch (IOException e) {
                problems.add(new Problem("hash", path + " cannot be read: " + e.getMessage()));
            }
        });
        present.stream()
                .filter(path -> !manifest.sha256ByPath().containsKey(path) && !BundleLayout.UNLISTED.contains(path))
                .sorted()
                .forEach(path -> problems.add(
                        new Problem("hash", path + " is not listed in " + BundleLayout.MANIFEST + " (added later?)")));
        for (final String required : BundleLayout.REQUIRED) {
            if (!present.contains(required) && !manifest.sha256ByPath().containsKey(required)) {
                problems.add(new Problem("bundle", required + " is missing: every bundle carries it"));
            }
        }
    }
}
