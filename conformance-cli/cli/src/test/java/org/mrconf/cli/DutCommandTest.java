package org.mrconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

class DutCommandTest {
    private static final long PATIENCE_MS = 60_000;
    private static final Pattern LISTENING =
            Pattern.compile("udp 127\\.0\\.0\\.1:(\\d+), control protocol on tcp 127\\.0\\.0\\.1:(\\d+)");

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private final CommandLine commandLine = new CommandLine(new DutCommand());

    DutCommandTest() {
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--port 70000            | UDP port must be 0 to 65535",
                "--control-port -2       | control port",
                "--entropy-ports 0       | entropy ports must be 1 to",
                "--mtu 50                | mtu 50",
                "--mtu 70000             | mtu must be at most 65535",
                "--port abc              | abc",
                "--bind 300.1.2.3        | not an IP address",
                "--bind 192.0.2.1        | requires a token of at least 16 characters",
                "--bind 192.0.2.1 --token short | requires a token of at least 16 characters",
                "--token=                | token must not be empty"
            })
    void shouldExitWithTwoAndAClearMessageOnBadOptions(final String options, final String message) {
        final String[] args = ("serve " + options.trim()).split(" ");

        final int exit = commandLine.execute(args);

        assertThat(exit).as("exit code; err: %s", err).isEqualTo(2);
        assertThat(err.toString()).contains(message).doesNotContain("\tat ");
        assertThat(out.toString()).doesNotContain("listening");
    }

    @Test
    void shouldServeTheControlProtocolUntilStoppedAndSayWhereItListens() throws Exception {
        final CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(
                () -> commandLine.execute("serve", "--port", "0", "--control-port", "0", "--entropy-ports", "4"));
        final Matcher listening = awaitListening();

        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), Integer.parseInt(listening.group(2)))) {
            socket.setSoTimeout((int) PATIENCE_MS);
            final OutputStream request = socket.getOutputStream();
            request.write("{\"v\":1,\"id\":\"h\",\"op\":\"hello\"}\n".getBytes(StandardCharsets.UTF_8));
            request.flush();
            final String response = new BufferedReader(
                            new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
            assertThat(response)
                    .startsWith("{\"v\":1,\"id\":\"h\",\"ok\":true")
                    .contains("\"udpPort\":" + listening.group(1));
        }

        ((DutCommand.Serve) commandLine.getSubcommands().get("serve").getCommand()).stop();

        assertThat(exit.get(PATIENCE_MS, TimeUnit.MILLISECONDS)).isZero();
        assertThat(out.toString().lines().filter(line -> line.contains("listening")))
                .hasSize(1);
    }

    @Test
    void shouldPrintUsageWithoutASubcommand() {
        assertThat(commandLine.execute()).isZero();
        assertThat(out.toString()).contains("serve");
    }

    private Matcher awaitListening() throws InterruptedException {
        final long deadline = System.nanoTime() + PATIENCE_MS * 1_000_000L;
        while (System.nanoTime() - deadline < 0) {
            final Matcher matcher = LISTENING.matcher(out.toString());
            if (matcher.find()) {
                return matcher;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no listening line; out: " + out + " err: " + err);
    }
}
