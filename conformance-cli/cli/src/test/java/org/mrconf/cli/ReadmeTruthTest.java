package org.mrconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The README says only what is true (issue 35): every {@code ./metaroce} command line it shows, in a code span or a
 * code block, parses with the real command model, so each subcommand and option it names exists where it is used;
 * every relative link and every repository path it names in a code span or block exists (a link into a Markdown file
 * with a {@code #fragment} names one of its headings); and its map of the CLI lists every subcommand.
 *
 * <p>A path under a module's {@code target/} is build output, so only the module before it must exist. The repository
 * root is {@code ../..} from this module, as for the other document tests, or the system property {@code mrconf.root}.
 */
class ReadmeTruthTest {
    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");
    private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*\\s*$");
    private static final Pattern PATH = Pattern.compile("(\\.{1,2}/)?[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*/?");
    private static final Pattern PLACEHOLDER = Pattern.compile("[A-Z][A-Z_]*");
    private static final Pattern SHELL_OPERATOR = Pattern.compile("[0-9]?[<>|&;].*");
    private static final String COMMAND = "./metaroce";

    private static Path root;
    private static String readme;

    @BeforeAll
    static void readTheReadme() throws IOException {
        root = Path.of(System.getProperty("mrconf.root", "../.."))
                .toAbsolutePath()
                .normalize();
        assertThat(root.resolve("README.md"))
                .as("the repository root (-Dmrconf.root)")
                .isRegularFile();
        assertThat(root.resolve("spec"))
                .as("the repository root (-Dmrconf.root)")
                .isDirectory();
        readme = Files.readString(root.resolve("README.md"), StandardCharsets.UTF_8);
    }

    @Test
    void shouldNameOnlyCommandsAndOptionsThatExist() {
        final Facts facts = Facts.of(readme);

        assertThat(facts.commandLines)
                .as("the README's ./metaroce command lines")
                .hasSizeGreaterThan(10)
                .contains(COMMAND + " run");
        assertThat(commandProblems(facts.commandLines))
                .as("./metaroce command lines of README.md that the command model rejects")
                .isEmpty();
    }

    @Test
    void shouldNameOnlyPathsAndLinksThatExist() {
        final Facts facts = Facts.of(readme);

        assertThat(facts.links).as("the README's relative links").isNotEmpty();
        assertThat(facts.paths).as("the README's repository paths").isNotEmpty();
        assertThat(pathProblems(root, facts))
                .as("links and paths of README.md that do not exist under %s", root)
                .isEmpty();
    }

    @Test
    void shouldListEverySubcommandInTheMapOfTheCli() {
        final Set<String> missing = new TreeSet<>();
        for (final String path : leafCommands(commandLine())) {
            if (!Pattern.compile("`" + Pattern.quote(COMMAND + " " + path) + "[` ]")
                    .matcher(readme)
                    .find()) {
                missing.add(COMMAND + " " + path);
            }
        }

        assertThat(missing)
                .as("subcommands missing from the README's map of the CLI")
                .isEmpty();
    }

    @Test
    void shouldCatchAnUnknownCommandOptionPathLinkOrHeading() throws IOException {
        final String text = String.join(
                "\n",
                "Run `./metaroce run --dut my-nic.json` or `./metaroce frobnicate`, see [docs](docs/no-such-page.md).",
                "",
                "```sh",
                "./metaroce clauses --format json          # fine",
                "./metaroce clauses --no-such-option       # not fine",
                "./metaroce run --dut 'reference?config=core' --case 'vector:*'",
                "./metaroce bench loss --quick > spec/no-such-file.md",
                "```",
                "",
                "| `spec/metaroce-open-draft.md` | `wire/no-such-dir/` | `wire/target/mrconf-wire.jar` |",
                "| `no-such-module/target/x.jar` | `reports/runs/RUN` | [spec](spec/metaroce-open-draft.md#1-scope) |",
                "[bad anchor](spec/metaroce-open-draft.md#no-such-heading) [web](https://example.org/x.md)");
        final Facts facts = Facts.of(text);

        assertThat(commandProblems(facts.commandLines))
                .hasSize(2)
                .anySatisfy(problem -> assertThat(problem).contains("frobnicate"))
                .anySatisfy(problem -> assertThat(problem).contains("--no-such-option"));
        assertThat(pathProblems(root, facts))
                .hasSize(5)
                .anySatisfy(problem -> assertThat(problem).contains("docs/no-such-page.md"))
                .anySatisfy(problem -> assertThat(problem).contains("spec/no-such-file.md"))
                .anySatisfy(problem -> assertThat(problem).contains("wire/no-such-dir/"))
                .anySatisfy(problem -> assertThat(problem).contains("no-such-module/target/x.jar"))
                .anySatisfy(problem -> assertThat(problem).contains("#no-such-heading"));
    }

    /** One line per command line the model rejects: an unknown subcommand or option, or a value it cannot take. */
    static List<String> commandProblems(final List<String> commandLines) {
        final List<String> problems = new ArrayList<>();
        for (final String line : commandLines) {
            final List<String> words = words(line);
            final String[] args = words.subList(1, words.size()).toArray(String[]::new);
            try {
                commandLine().parseArgs(args);
            } catch (final CommandLine.MissingParameterException shownWithoutIt) {
                // The README may name a command without its required argument: "`./metaroce report show`".
            } catch (final CommandLine.ParameterException rejected) {
                problems.add(line + ": " + rejected.getMessage());
            }
        }
        return problems;
    }

    /** One line per relative link, fragment or repository path that does not exist under {@code root}. */
    static List<String> pathProblems(final Path root, final Facts facts) {
        final List<String> problems = new ArrayList<>();
        for (final String link : facts.links) {
            final int hash = link.indexOf('#');
            final String file = hash < 0 ? link : link.substring(0, hash);
            final Path target =
                    root.resolve(file.isEmpty() ? "README.md" : file).normalize();
            if (!Files.exists(target)) {
                problems.add("link " + link + ": no such file");
            } else if (hash >= 0 && (file.isEmpty() || file.endsWith(".md"))) {
                final String anchor = link.substring(hash + 1);
                if (!anchors(target).contains(anchor)) {
                    problems.add("link " + link + ": no heading #" + anchor + " in " + root.relativize(target));
                }
            }
        }
        for (final String path : facts.paths) {
            final int target = (path.endsWith("/") ? path : path + "/").indexOf("/target/");
            if (target >= 0) {
                final String module = path.substring(0, target);
                if (!Files.isRegularFile(root.resolve(module).resolve("pom.xml"))) {
                    problems.add("path " + path + ": build output of no module (no " + module + "/pom.xml)");
                }
            } else if (!Files.exists(root.resolve(path))) {
                problems.add("path " + path + ": no such file or folder");
            }
        }
        return problems;
    }

    /** The anchors GitHub gives the headings of a Markdown file. */
    private static Set<String> anchors(final Path markdown) {
        final Set<String> anchors = new LinkedHashSet<>();
        try {
            boolean code = false;
            for (final String line : Files.readAllLines(markdown, StandardCharsets.UTF_8)) {
                if (FENCE.matcher(line).find()) {
                    code = !code;
                }
                final Matcher heading = HEADING.matcher(line);
                if (!code && heading.matches()) {
                    anchors.add(heading.group(1)
                            .toLowerCase(Locale.ROOT)
                            .replaceAll("[^\\p{L}\\p{N} _-]", "")
                            .replace(' ', '-'));
                }
            }
        } catch (final IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return anchors;
    }

    /** Every command that has no subcommands, by its path from the root: "run", "bench loss", "help". */
    private static List<String> leafCommands(final CommandLine command) {
        final List<String> paths = new ArrayList<>();
        final Set<CommandLine> seen =
                new LinkedHashSet<>(command.getSubcommands().values());
        for (final CommandLine sub : seen) {
            final List<String> below = leafCommands(sub);
            if (below.isEmpty()) {
                paths.add(sub.getCommandName());
            } else {
                below.forEach(path -> paths.add(sub.getCommandName() + " " + path));
            }
        }
        return paths;
    }

    private static CommandLine commandLine() {
        return MetaroceCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
    }

    /**
     * A command line split as a POSIX shell would, for the plain quoting the README uses; a comment, and whatever
     * follows a redirection, pipe or list operator, dropped.
     */
    static List<String> words(final String line) {
        final List<String> words = new ArrayList<>();
        final StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            final char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else if (c == '#' && !inWord) {
                break;
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        for (int i = 0; i < words.size(); i++) {
            if (SHELL_OPERATOR.matcher(words.get(i)).matches()) {
                return words.subList(0, i);
            }
        }
        return words;
    }

    /** What a Markdown text names: its {@code ./metaroce} command lines, relative links and repository paths. */
    static final class Facts {
        final List<String> commandLines = new ArrayList<>();
        final List<String> links = new ArrayList<>();
        final List<String> paths = new ArrayList<>();

        static Facts of(final String markdown) {
            final Facts facts = new Facts();
            boolean code = false;
            for (final String line : markdown.split("\n", -1)) {
                if (FENCE.matcher(line).find()) {
                    code = !code;
                } else if (code) {
                    facts.block(line);
                } else {
                    facts.prose(line);
                }
            }
            return facts;
        }

        private void block(final String line) {
            final String command = line.strip();
            if (command.startsWith(COMMAND + " ") || command.equals(COMMAND)) {
                commandLines.add(command.replaceAll("\\s+#.*$", ""));
            }
            // Shell redirections and pipes end a command; every word may still be a repository path.
            for (final String word : line.strip().split("\\s+")) {
                path(word.replaceAll("^[(\\[]+", "").replaceAll("[)\\],;:.]+$", ""));
            }
        }

        private void prose(final String line) {
            final Matcher span = CODE_SPAN.matcher(line);
            while (span.find()) {
                final String text = span.group(1).strip();
                if (text.startsWith(COMMAND + " ") || text.equals(COMMAND)) {
                    commandLines.add(text);
                } else {
                    path(text);
                }
            }
            final Matcher link = LINK.matcher(CODE_SPAN.matcher(line).replaceAll(""));
            while (link.find()) {
                final String target = link.group(1);
                if (!target.contains("://") && !target.startsWith("mailto:")) {
                    links.add(target.startsWith("#") ? target : target.replaceFirst("^\\./", ""));
                }
            }
        }

        /** A word that names a file or folder of the repository: a relative path with a slash and no placeholder. */
        private void path(final String word) {
            if (!word.contains("/")
                    || word.equals(COMMAND)
                    || !PATH.matcher(word).matches()) {
                return;
            }
            for (final String segment : word.split("/")) {
                if (PLACEHOLDER.matcher(segment).matches()) {
                    return;
                }
            }
            paths.add(word.replaceFirst("^\\./", ""));
        }
    }
}
